// A line chart of a result that is a time series: the first column a time (a TIMESTAMP, or epoch
// milliseconds such as dateTrunc's buckets) and every other column a number. uPlot draws it on a
// canvas: thousands of points in a few milliseconds, from a 50 KB script (docs/console.md) that
// the page loads before its modules (/console/vendor/uplot.js, from the uPlot webjar).

const uPlot = globalThis.uPlot;

const NUMBERS = new Set(['INT', 'LONG', 'FLOAT', 'DOUBLE', 'BIG_DECIMAL']);
const TIME_NAME = /time|timestamp|bucket|date|day|hour|minute|second|^ts$/i;
// Epoch milliseconds between 2000 and 2100: a LONG in this range is taken as a time.
const MIN_MILLIS = 946684800000;
const MAX_MILLIS = 4102444800000;
const COLORS = ['#2f6f9f', '#d1603d', '#3b8f4a', '#8e5bb5', '#c49a1b', '#4aa3a8'];

// The series a result holds, or null when it is not a time series. x in seconds (uPlot's unit).
export function timeSeries(resultTable) {
  const schema = resultTable?.dataSchema;
  const rows = resultTable?.rows;
  if (!schema || !rows || rows.length < 2 || schema.columnNames.length < 2) return null;
  const types = schema.columnDataTypes;
  if (!types.slice(1).every((type) => NUMBERS.has(type))) return null;
  const toMillis = timeReader(schema.columnNames[0], types[0], rows);
  if (toMillis === null) return null;
  const points = rows.map((row) => [toMillis(row[0]), ...row.slice(1).map(number)]);
  if (points.some((point) => Number.isNaN(point[0]))) return null;
  points.sort((a, b) => a[0] - b[0]);
  const data = [points.map((point) => point[0] / 1000)];
  for (let column = 1; column < schema.columnNames.length; column += 1) {
    data.push(points.map((point) => point[column]));
  }
  return { names: schema.columnNames, data };
}

function timeReader(name, type, rows) {
  if (type === 'TIMESTAMP') {
    return (value) => (typeof value === 'number' ? value : Date.parse(`${String(value).replace(' ', 'T')}Z`));
  }
  if (type !== 'LONG' && type !== 'INT') return null;
  const values = rows.map((row) => row[0]);
  if (values.every((value) => typeof value === 'number' && value >= MIN_MILLIS && value <= MAX_MILLIS)) {
    return (value) => value;
  }
  // Epoch seconds, when the column's name says it is a time.
  if (TIME_NAME.test(name) && values.every((value) => typeof value === 'number' && value >= MIN_MILLIS / 1000 && value <= MAX_MILLIS / 1000)) {
    return (value) => value * 1000;
  }
  return null;
}

function number(value) {
  if (value === null || value === undefined) return null;
  // Numbers, BigInts (exact 64-bit integers) and BIG_DECIMAL's strings alike.
  const parsed = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

// Draws the series into target (emptied first); returns the chart, to destroy on the next run.
export function drawChart(series, target) {
  target.replaceChildren();
  const options = {
    width: Math.max(320, target.clientWidth || 900),
    height: 320,
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
    scales: { x: { time: true } },
    series: [
      { label: `${series.names[0]} (UTC)` },
      ...series.names.slice(1).map((name, index) => ({
        label: name,
        stroke: COLORS[index % COLORS.length],
        width: 1.5,
        points: { show: series.data[0].length <= 120 },
      })),
    ],
  };
  return new uPlot(options, series.data, target);
}
