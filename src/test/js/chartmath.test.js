// The chart's span, scale and points, including the edges: nothing yet, one point, huge values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOX, MAX_SECONDS, MIN_SECONDS, axisLabels, chartData, gridValues, niceMax, points, scale, span, spanText }
  from '../../../webroot/js/chartmath.js';
import { compact } from '../../../webroot/js/format.js';

const S = 1_700_000_000;
const now = (S + 1) * 1000 + 300; // the last whole second is S

const coords = (pts) => pts.split(' ').map((p) => p.split(',').map(Number));

test('with no data the chart spans a minute of zeros on the baseline, scaled to 1/s', () => {
  const d = chartData({}, now);
  assert.equal(d.seconds, MIN_SECONDS);
  assert.equal(d.end, S);
  assert.equal(d.peak, 0);
  assert.equal(d.values.completed.length, MIN_SECONDS);
  assert.ok(d.values.failed.every((v) => v === 0));
  const top = niceMax(d.peak);
  assert.equal(top, 1);
  const s = scale(top, d.seconds);
  const ys = new Set(coords(points(d.values.completed, s)).map(([, y]) => y));
  assert.deepEqual([...ys], [BOX.height - BOX.bottom]);
});

test('the span grows with the data from one minute to three, and no further', () => {
  assert.equal(span({ [S - 10]: {} }, S), MIN_SECONDS);
  assert.equal(span({ [S - 99]: {} }, S), 100);
  assert.equal(span({ [S - 1000]: {} }, S), MAX_SECONDS);
  assert.equal(span({ [S + 5]: {} }, S), MIN_SECONDS, 'a bucket ahead of the clock does not count');
});

test('values sit at their second, newest at the right edge, and the peak is the largest', () => {
  const buckets = { [S]: { completed: 8, failed: 1, interrupted: 0, rejected: 0 },
    [S - 59]: { completed: 2, failed: 0, interrupted: 0, rejected: 3 } };
  const d = chartData(buckets, now);
  assert.equal(d.values.completed.at(-1), 8);
  assert.equal(d.values.rejected[0], 3);
  assert.equal(d.peak, 8);
  const s = scale(niceMax(d.peak), d.seconds);
  const pts = coords(points(d.values.completed, s));
  const at = (v) => Number(s.y(v).toFixed(1));
  assert.deepEqual(pts[0], [0, at(2)]);
  assert.deepEqual(pts.at(-1), [BOX.width, at(8)]);
  assert.equal(s.y(10), BOX.top, 'the top of the scale is the top of the plot');
});

test('one point sits at the right edge, with no NaN', () => {
  const s = scale(1, 1);
  assert.equal(points([0.5], s), `${BOX.width.toFixed(1)},${s.y(0.5).toFixed(1)}`);
  assert.equal(points([], s), '');
});

test('the scale tops at a nice number above the peak', () => {
  assert.deepEqual([0, 0.3, 1, 1.5, 2, 2.2, 3, 7, 10, 11, 47, 250, 251, 999].map(niceMax),
    [1, 1, 1, 2, 2, 2.5, 5, 10, 10, 20, 50, 250, 500, 1000]);
  assert.equal(niceMax(NaN), 1);
  assert.equal(niceMax(-5), 1);
});

test('huge values keep a finite scale, points inside the box and a short label', () => {
  const huge = 3.7e12;
  const top = niceMax(huge);
  assert.equal(top, 5e12);
  const s = scale(top, 3);
  for (const [x, y] of coords(points([0, huge, 1e300], s))) {
    assert.ok(Number.isFinite(x) && Number.isFinite(y));
    assert.ok(y >= BOX.top && y <= BOX.height - BOX.bottom, `y ${y} inside the box`);
  }
  assert.equal(compact(top), '5T');
  assert.equal(compact(2.5e6), '2.5M');
  assert.equal(compact(2500), '2.5k');
  assert.equal(compact(250), '250');
  assert.equal(compact(0.25), '0.25');
});

test('values that are not finite positive numbers are drawn as zero', () => {
  const d = chartData({ [S]: { completed: Infinity, failed: NaN, interrupted: -4, rejected: '7' } }, now);
  assert.deepEqual([d.values.completed.at(-1), d.values.failed.at(-1), d.values.interrupted.at(-1),
    d.values.rejected.at(-1), d.peak], [0, 0, 0, 0, 0]);
});

test('grid lines at quarters, axis labels in seconds or whole minutes', () => {
  assert.deepEqual(gridValues(20), [0, 5, 10, 15, 20]);
  assert.deepEqual(axisLabels(60), ['−1 min', '−40 s', '−20 s', 'now']);
  assert.deepEqual(axisLabels(75), ['−75 s', '−50 s', '−25 s', 'now']);
  assert.deepEqual(axisLabels(180), ['−3 min', '−2 min', '−1 min', 'now']);
  assert.deepEqual(axisLabels(100), ['−100 s', '−67 s', '−33 s', 'now']);
  assert.equal(spanText(60), 'last 60 seconds');
  assert.equal(spanText(180), 'last 3 minutes');
});
