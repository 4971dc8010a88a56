// The console's entry point: one page per hash (#tables, #nodes, #query), each drawn from the HTTP
// API. The tables and nodes pages refresh every 5 s while shown.

import { el } from './dom.js';
import { renderNodes } from './nodes.js';
import { setUpQueryPage, showQueryPage } from './query.js';
import { renderTables } from './tables.js';

const REFRESH_MS = 5000;
const PAGES = ['tables', 'nodes', 'query'];
let refresh = null;

function route() {
  const [page, parameters] = location.hash.replace(/^#/, '').split('?');
  const shown = PAGES.includes(page) ? page : 'tables';
  for (const name of PAGES) {
    document.getElementById(`page-${name}`).hidden = name !== shown;
  }
  for (const link of document.querySelectorAll('nav a')) {
    link.classList.toggle('active', link.dataset.page === shown);
  }
  clearInterval(refresh);
  refresh = null;
  if (shown === 'query') {
    showQueryPage(new URLSearchParams(parameters || ''));
    return;
  }
  const draw = shown === 'tables'
    ? () => renderTables(document.getElementById('tables'))
    : () => renderNodes(document.getElementById('nodes'), document.getElementById('checks'));
  const drawSafely = () => draw().then(clearAuthError, showAuthError);
  drawSafely();
  refresh = setInterval(drawSafely, REFRESH_MS);
}

function showAuthError(failure) {
  const banner = document.getElementById('auth-error');
  banner.textContent = failure.status === 401
    ? 'Cannot read the node: sign in again (reload the page and enter a user and password)'
    : failure.status === 403
      ? `Cannot read this page: ${failure.message}`
      : `Cannot reach the node: ${failure.message}`;
  banner.hidden = false;
}

function clearAuthError() {
  document.getElementById('auth-error').hidden = true;
}

async function health() {
  const badge = document.getElementById('node-health');
  try {
    const response = await fetch('/health');
    const body = await response.json();
    badge.textContent = `${body.roles.join(' + ')}: ${body.status}`;
    badge.className = `badge health-${String(body.status).toLowerCase()}`;
  } catch {
    badge.textContent = 'unreachable';
    badge.className = 'badge health-failing';
  }
}

setUpQueryPage();
window.addEventListener('hashchange', route);
route();
health();
setInterval(health, REFRESH_MS);
// Marks the page as scripted for tests and screenshots; never read by the console itself.
document.body.append(el('span', { id: 'console-ready', hidden: true }));
