// The query editor: runs SQL through POST /query/sql and shows the statistics line, the result
// grid, a line chart when the result is a time series, and the EXPLAIN ANALYZE view when the answer
// carries one.

import { query } from './api.js';
import { drawChart, timeSeries } from './chart.js';
import { bytes, count, el, json, replace } from './dom.js';
import { renderExplain } from './explain.js';

// More rows than this are counted but not put in the grid: a page of 100,000 rows is unusable.
const MAX_GRID_ROWS = 1000;
const STORED_SQL = 'shelfmark.console.sql';

let chart = null;

export function setUpQueryPage() {
  const sql = document.getElementById('sql');
  sql.value = localStorage.getItem(STORED_SQL) || '';
  document.getElementById('run').addEventListener('click', () => run(sql.value));
  document.getElementById('explain-analyze').addEventListener('click', () => {
    const text = sql.value.trim();
    run(/^explain\b/i.test(text) ? text : `EXPLAIN ANALYZE ${text}`);
  });
  sql.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run(sql.value);
    }
  });
}

// #query?sql=... (the tables page links here) puts that SQL in the editor.
export function showQueryPage(parameters) {
  const text = parameters.get('sql');
  if (text) document.getElementById('sql').value = text;
  document.getElementById('sql').focus();
}

async function run(sql) {
  if (sql.trim() === '') return;
  localStorage.setItem(STORED_SQL, document.getElementById('sql').value);
  const button = document.getElementById('run');
  const error = document.getElementById('query-error');
  const stats = document.getElementById('query-stats');
  button.disabled = true;
  error.hidden = true;
  stats.textContent = 'running…';
  const started = performance.now();
  let answer;
  try {
    answer = await query(sql);
  } catch (failure) {
    showError(failure.status === 401 ? 'Cannot run the query: sign in again (reload the page)' : failure.message);
    stats.textContent = '';
    button.disabled = false;
    return;
  }
  button.disabled = false;
  const elapsed = Math.round(performance.now() - started);
  if (answer.exceptions && answer.exceptions.length > 0) {
    showError(answer.exceptions.map((e) => `${e.errorType ?? 'ERROR'} (${e.errorCode}): ${e.message}`).join('\n'));
  }
  stats.replaceChildren(...statistics(answer, elapsed));
  showResult(answer.resultTable);
  showChart(answer.resultTable);
  showExplain(answer.explain);
}

function showError(message) {
  const error = document.getElementById('query-error');
  error.textContent = message;
  error.hidden = false;
}

function statistics(answer, elapsedMs) {
  const rows = answer.resultTable?.rows?.length;
  const parts = [
    `${count(answer.timeUsedMs)} ms in the broker (${count(elapsedMs)} ms here)`,
    rows === undefined ? null : `${count(rows)} rows`,
    `${count(answer.numDocsScanned)} of ${count(answer.totalDocs)} docs matched`,
    `files: ${count(answer.numSegmentsQueried)} queried, ${count(answer.numSegmentsPrunedByBroker)} pruned by the broker,` +
      ` ${count(answer.numSegmentsMatched)} matched, ${count(answer.numSegmentsIndexOnly)} answered from the index alone`,
    `storage ${bytes(answer.storageBytesRead)} in ${count(answer.storageRequests)} requests`,
    `cache ${count(answer.cacheHits)} hits, ${count(answer.cacheMisses)} misses`,
    answer.snapshotId === undefined ? null : `snapshot ${answer.snapshotId}`,
    answer.partialResult ? 'PARTIAL RESULT' : null,
  ].filter((part) => part !== null);
  return parts.flatMap((part, index) => (index === 0 ? [el('span', { text: part })] : [' · ', el('span', { text: part })]));
}

function showResult(resultTable) {
  const panel = document.getElementById('result-panel');
  const grid = document.getElementById('result');
  if (!resultTable) {
    panel.hidden = true;
    grid.replaceChildren();
    return;
  }
  const { columnNames, columnDataTypes } = resultTable.dataSchema;
  const rows = resultTable.rows;
  replace(grid,
    el('thead', {}, el('tr', {}, columnNames.map((name, i) => el('th', { title: columnDataTypes[i] }, name, el('span', { class: 'type', text: columnDataTypes[i] }))))),
    el('tbody', {}, rows.slice(0, MAX_GRID_ROWS).map((row) =>
      el('tr', {}, row.map((value, i) => cell(value, columnDataTypes[i]))))));
  document.getElementById('result-caption').textContent =
    rows.length > MAX_GRID_ROWS ? `first ${count(MAX_GRID_ROWS)} of ${count(rows.length)} rows` : `${count(rows.length)} rows`;
  panel.hidden = false;
}

function cell(value, type) {
  if (value === null || value === undefined) return el('td', { class: 'null', text: 'null' });
  const numeric = typeof value === 'number' || typeof value === 'bigint';
  // A LONG in the epoch-milliseconds range of 2000-2100 is probably a time: its tooltip says which.
  const time = type === 'LONG' && typeof value === 'number' && value > 946684800000 && value < 4102444800000;
  return el('td', {
    class: numeric ? 'number' : null,
    text: typeof value === 'object' ? json(value) : String(value),
    title: time ? new Date(value).toISOString() : null,
  });
}

function showChart(resultTable) {
  const panel = document.getElementById('chart-panel');
  if (chart) {
    chart.destroy();
    chart = null;
  }
  const series = resultTable ? timeSeries(resultTable) : null;
  if (!series) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  document.getElementById('chart-caption').textContent =
    `${series.names.slice(1).join(', ')} by ${series.names[0]}, ${count(series.data[0].length)} points`;
  chart = drawChart(series, document.getElementById('chart'));
}

function showExplain(explain) {
  const panel = document.getElementById('explain-panel');
  if (explain === undefined || explain === null) {
    panel.hidden = true;
    document.getElementById('explain').replaceChildren();
    return;
  }
  replace(document.getElementById('explain'), renderExplain(explain));
  panel.hidden = false;
}
