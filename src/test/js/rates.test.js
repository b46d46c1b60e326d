// Outcomes per second: buckets from counter growth, a recorded series, and rates over a window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEEP_SECONDS, baseline, emptyRates, foldSeries, lastWholeSecond, ratesOver, record }
  from '../../../webroot/js/rates.js';

const S = 1_700_000_000; // an epoch second
const c = (completed, failed = 0, interrupted = 0, rejected = 0) => ({ completed, failed, interrupted, rejected, accepted: 999 });
const b = (completed, failed = 0, interrupted = 0, rejected = 0) => ({ completed, failed, interrupted, rejected });

test('the first counters only set the baseline', () => {
  const r = record(emptyRates(), c(50), S * 1000);
  assert.deepEqual(r.buckets, {});
  assert.deepEqual(r.lastCounters, c(50));
});

test('growth lands in the second of the snapshot, two snapshots in one second add up', () => {
  let r = baseline(emptyRates(), c(0), S * 1000);
  r = record(r, c(3, 1), S * 1000 + 400);
  r = record(r, c(7, 1, 0, 5), S * 1000 + 900);
  r = record(r, c(9, 1, 1, 5), S * 1000 + 1400);
  assert.deepEqual(r.buckets, { [S]: b(7, 1, 0, 5), [S + 1]: b(2, 0, 1, 0) });
});

test('a snapshot not newer than the last one, or counters that went down, add nothing', () => {
  let r = baseline(emptyRates(), c(10), S * 1000);
  r = record(r, c(20), S * 1000);
  assert.deepEqual(r.buckets, {});
  r = record(r, c(2), S * 1000 + 500);
  assert.deepEqual(r.buckets, {});
  r = record(r, c(5), S * 1000 + 1000);
  assert.deepEqual(r.buckets, { [S + 1]: b(3) }, 'counting resumes from the lower counters');
});

test('buckets older than the chart can show are dropped', () => {
  let r = baseline(emptyRates(), c(0), S * 1000);
  r = record(r, c(1), S * 1000 + 500);
  r = record(r, c(2), (S + KEEP_SECONDS + 1) * 1000);
  assert.deepEqual(Object.keys(r.buckets).map(Number), [S + KEEP_SECONDS + 1]);
});

test('rates are the mean per second over the window, missing seconds counting as zero', () => {
  const buckets = { [S - 1]: b(100), [S]: b(10, 2), [S + 2]: b(20, 0, 0, 5), [S + 3]: b(0, 0, 3) };
  assert.deepEqual(ratesOver(buckets, S + 4, 5), { completed: 6, failed: 0.4, interrupted: 0.6, rejected: 1 });
  assert.deepEqual(ratesOver(buckets, S + 4, 1), b(0));
  assert.deepEqual(ratesOver(buckets, S, 2), { completed: 55, failed: 1, interrupted: 0, rejected: 0 });
  assert.deepEqual(ratesOver({}, S, 5), b(0));
  assert.deepEqual(ratesOver(buckets, S, 0), b(0));
});

test('the last whole second is the one before the current', () => {
  assert.equal(lastWholeSecond(S * 1000), S - 1);
  assert.equal(lastWholeSecond(S * 1000 + 999), S - 1);
});

test('a recorded series replaces the page\'s buckets for its seconds and keeps the others', () => {
  const r = { ...emptyRates(), buckets: { [S]: b(1), [S + 1]: b(2) } };
  const next = foldSeries(r, [{ at: S * 1000 + 250, completed: 9, failed: -3, rejected: 'x' }, 'junk', { completed: 1 }]);
  assert.deepEqual(next.buckets, { [S]: b(9), [S + 1]: b(2) });
  assert.equal(foldSeries(r, []), r);
  assert.equal(foldSeries(r, undefined), r);
  assert.equal(foldSeries(r, [{ completed: 1 }]), r);
});
