// Small DOM and formatting helpers. Text always goes in as text (textContent), never as HTML:
// table names, failure reasons and query results come from outside and must not become markup.

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function replace(container, ...children) {
  container.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined));
}

const counts = new Intl.NumberFormat('en-US');

export function count(value) {
  return (typeof value === 'number' || typeof value === 'bigint') && value >= 0 ? counts.format(value) : '—';
}

// JSON for display; BigInt values (exact 64-bit integers) as their digits.
export function json(value) {
  return JSON.stringify(value, (key, v) => (typeof v === 'bigint' ? v.toString() : v));
}

export function bytes(value) {
  if (typeof value !== 'number' || value < 0) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let scaled = value;
  let unit = 0;
  while (scaled >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? scaled : scaled.toFixed(1)} ${units[unit]}`;
}

export function percent(part, whole) {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : '—';
}

// "2026-11-27 04:20:11 UTC (3 min ago)"; epoch milliseconds, -1 or missing when unknown.
export function instant(millis) {
  if (typeof millis !== 'number' || millis < 0) return 'unknown';
  const iso = new Date(millis).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  return `${iso} (${ago(Date.now() - millis)})`;
}

function ago(elapsed) {
  const seconds = Math.max(0, Math.round(elapsed / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${(seconds / 3600).toFixed(1)} h ago`;
  return `${(seconds / 86400).toFixed(1)} days ago`;
}
