// The EXPLAIN ANALYZE view. It renders whatever JSON the broker sends in the answer's "explain"
// field, without knowing its fields: text as text, an array of like objects as a table, an object
// as its scalar fields on one line with its nested parts below (a plan tree nests this way).

import { el } from './dom.js';

export function renderExplain(value) {
  return el('div', { class: 'explain' }, node(value, 0));
}

function node(value, depth) {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' && value.includes('\n') ? el('pre', { text: value }) : el('span', { text: scalar(value) });
  }
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isPlainObject) && value.every((item) => Object.values(item).every(isScalar))) {
      return table(value);
    }
    return el('ol', { class: 'explain-list' }, value.map((item) => el('li', {}, node(item, depth + 1))));
  }
  // Text of several lines (a plan printed as a table) gets a block of its own, like nested parts.
  const inline = (v) => isScalar(v) && !(typeof v === 'string' && v.includes('\n'));
  const scalars = Object.entries(value).filter(([, v]) => inline(v));
  const nested = Object.entries(value).filter(([, v]) => !inline(v));
  return el('div', { class: 'explain-node' },
    scalars.length === 0 ? null : el('p', { class: 'explain-fields' },
      scalars.map(([key, v], index) => [index > 0 ? ' · ' : '', el('span', { class: 'key', text: key }), ' ', el('span', { class: 'value', text: scalar(v) })])),
    nested.map(([key, v]) => el('details', { open: depth < 4 }, el('summary', { text: key }), node(v, depth + 1))));
}

function table(items) {
  const keys = [...new Set(items.flatMap((item) => Object.keys(item)))];
  return el('table', { class: 'grid' },
    el('thead', {}, el('tr', {}, keys.map((key) => el('th', { text: key })))),
    el('tbody', {}, items.map((item) => el('tr', {}, keys.map((key) => el('td', { class: typeof item[key] === 'number' || typeof item[key] === 'bigint' ? 'number' : null, text: scalar(item[key]) }))))));
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isScalar(value) {
  return value === null || typeof value !== 'object';
}

function scalar(value) {
  return value === null || value === undefined ? '—' : String(value);
}
