// The console reads the same HTTP API as every client (docs/http-api.md). With users configured
// the browser has asked for them already (HTTP Basic, to load the page) and sends them again here.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// Integers beyond 2^53 (snapshot ids, LONG values) would lose digits as JavaScript numbers: they are
// read as BigInt from their source text (JSON.parse's source access; a browser without it keeps the
// rounded number).
function exactIntegers(key, value, context) {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

async function read(response, path) {
  const text = await response.text();
  let body;
  try {
    body = text === '' ? {} : JSON.parse(text, exactIntegers);
  } catch {
    throw new ApiError(`Cannot read the answer of ${path}: not JSON (HTTP ${response.status})`, response.status);
  }
  return body;
}

export async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await read(response, path);
  if (!response.ok) {
    throw new ApiError(body.error || `${path} answered HTTP ${response.status}`, response.status);
  }
  return body;
}

// The Pinot-shaped answer, whatever the HTTP status: query errors come in its "exceptions".
export async function query(sql) {
  const response = await fetch('/query/sql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ sql }),
  });
  const body = await read(response, '/query/sql');
  if (response.status === 401 || response.status === 403) {
    throw new ApiError(body.error || `HTTP ${response.status}`, response.status);
  }
  return body;
}
