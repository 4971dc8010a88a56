// The nodes page: each process's roles, health, segments and cache use per tier (GET /nodes), and
// this node's dependency checks (GET /health). In a cluster, other processes are listed from its
// members; their segments and caches are theirs to report.

import { getJson } from './api.js';
import { bytes, count, el, instant, percent, replace } from './dom.js';

export async function renderNodes(container, checksContainer) {
  const [{ nodes }, health] = await Promise.all([getJson('/nodes'), getJson('/health').catch((error) => ({ error: error.message }))]);
  replace(container, nodes.length === 0 ? el('p', { class: 'empty', text: 'This process reports no nodes.' }) : nodeTable(nodes));
  replace(checksContainer, checks(health));
}

function nodeTable(nodes) {
  return el('table', { class: 'grid nodes' },
    el('thead', {}, el('tr', {}, ['node', 'roles', 'health', 'ports', 'started', 'segments', 'cache'].map((name) => el('th', { text: name })))),
    el('tbody', {}, nodes.map((node) =>
      el('tr', { 'data-node': node.id },
        el('td', { text: node.id }),
        el('td', { text: node.roles.join(', ') }),
        el('td', {}, el('span', { class: `badge health-${node.health.toLowerCase()}`, text: node.health })),
        el('td', { text: Object.entries(node.ports).map(([name, port]) => `${name} ${port}`).join(', ') || '—' }),
        el('td', { text: instant(node.startedAtMillis) }),
        el('td', { class: 'number', text: count(node.segments) }),
        el('td', {}, cache(node.cache))))));
}

function cache(tiers) {
  if (tiers.length === 0) return '—';
  return el('ul', { class: 'tiers' }, tiers.map((tier) => {
    const reads = tier.hits + tier.misses;
    return el('li', { class: `tier tier-${tier.tier}` },
      el('strong', { text: tier.tier }), ' ',
      tier.maxBytes === 0
        ? 'off'
        : `${bytes(tier.usedBytes)} of ${bytes(tier.maxBytes)} (${percent(tier.usedBytes, tier.maxBytes)}), ` +
          `${count(tier.entries)} entries; hits ${percent(tier.hits, reads)} of ${count(reads)} reads, ${count(tier.evictions)} evictions`);
  }));
}

function checks(health) {
  if (health.error) return el('p', { class: 'error', text: health.error });
  const rows = Object.entries(health.checks || {});
  return [
    el('p', {}, 'status ', el('span', { class: `badge health-${String(health.status).toLowerCase()}`, text: health.status }), ` · roles ${health.roles.join(', ')}`),
    rows.length === 0 ? null : el('table', { class: 'grid' },
      el('thead', {}, el('tr', {}, ['check', 'status', 'latency', 'checked', 'detail'].map((name) => el('th', { text: name })))),
      el('tbody', {}, rows.map(([name, check]) => el('tr', {},
        el('td', { text: name }),
        el('td', {}, el('span', { class: `badge health-${check.status.toLowerCase()}`, text: check.status })),
        el('td', { class: 'number', text: `${check.latencyMs} ms` }),
        el('td', { text: check.checkedAt || '—' }),
        el('td', { text: check.detail || '' }))))),
  ];
}
