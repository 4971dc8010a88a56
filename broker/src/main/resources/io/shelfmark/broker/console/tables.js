// The tables page: every served table's state, snapshot, files, rows, segments and sizes, and why
// segments failed. One card per table, from GET /tables and GET /tables/{name}/status.

import { getJson } from './api.js';
import { bytes, count, el, instant, percent, replace } from './dom.js';

export async function renderTables(container) {
  const { tables } = await getJson('/tables');
  if (tables.length === 0) {
    replace(container, el('p', { class: 'empty', text: 'No tables served yet (POST /tables onboards one; docs/query-your-own-table.md).' }));
    return;
  }
  const statuses = await Promise.all(
    tables.map((name) => getJson(`/tables/${encodeURIComponent(name)}/status`).catch((error) => ({ name, error: error.message }))),
  );
  replace(container, statuses.map(card));
}

function card(status) {
  if (status.error) {
    return el('article', { class: 'card', 'data-table': status.name },
      el('h2', { text: status.name }), el('p', { class: 'error', text: status.error }));
  }
  const segmentsTotal = status.segmentsReady + status.segmentsPending + status.segmentsFailed;
  return el('article', { class: 'card', 'data-table': status.name },
    el('h2', {},
      el('span', { class: 'table-name', text: status.name }),
      el('span', { class: `badge state-${status.state.toLowerCase()}`, text: status.state }),
      el('a', { class: 'query-link', href: `#query?sql=${encodeURIComponent(`SELECT * FROM ${status.name} LIMIT 100`)}`, text: 'query' })),
    el('dl', { class: 'facts' },
      fact('snapshot', status.snapshotId < 0 ? 'none yet' : String(status.snapshotId)),
      fact('committed', instant(status.snapshotCommittedAtMillis)),
      fact('data files', count(status.dataFiles)),
      fact('rows', count(status.records)),
      fact('rows indexed', `${count(status.recordsIndexed)} (${percent(status.recordsIndexed, status.records)})`),
      fact('data bytes', bytes(status.dataBytes)),
      fact('index bytes', `${bytes(status.indexBytes)} (${percent(status.indexBytes, status.dataBytes)} of the data)`),
      fact('warm-up', status.warmup)),
    segments(status, segmentsTotal),
    failures(status));
}

function fact(term, value) {
  return [el('dt', { text: term }), el('dd', { 'data-fact': term, text: value })];
}

function segments(status, total) {
  const part = (kind, value) =>
    value > 0 ? el('span', { class: `bar-${kind}`, style: `width: ${(100 * value) / total}%`, title: `${value} ${kind}` }) : null;
  return el('div', { class: 'segments' },
    el('div', { class: 'bar', role: 'img', 'aria-label': 'segments by state' },
      total > 0 ? [part('ready', status.segmentsReady), part('pending', status.segmentsPending), part('failed', status.segmentsFailed)] : []),
    el('p', { class: 'segment-counts' },
      el('span', { class: 'count-ready', text: `${count(status.segmentsReady)} ready` }), ' · ',
      el('span', { class: 'count-pending', text: `${count(status.segmentsPending)} pending` }), ' · ',
      el('span', { class: 'count-failed', text: `${count(status.segmentsFailed)} failed` }),
      status.segmentsRepaired > 0 ? ` · ${count(status.segmentsRepaired)} repaired` : ''));
}

function failures(status) {
  if (status.failures.length === 0) return null;
  const more = status.segmentsFailed - status.failures.length;
  return el('details', { class: 'failures', open: true },
    el('summary', { text: `Why ${status.segmentsFailed === 1 ? 'a segment' : 'segments'} failed (their files are read directly)` }),
    el('table', { class: 'grid' },
      el('thead', {}, el('tr', {}, el('th', { text: 'data file' }), el('th', { text: 'reason' }))),
      el('tbody', {}, status.failures.map((failure) =>
        el('tr', { class: 'failure' }, el('td', { class: 'file', text: failure.dataFile }), el('td', { class: 'reason', text: failure.reason }))))),
    more > 0 ? el('p', { class: 'hint', text: `and ${count(more)} more` }) : null);
}
