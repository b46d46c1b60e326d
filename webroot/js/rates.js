// Outcomes per second: the per-second buckets the chart draws, filled from the growth of the
// pool's counters between two snapshots, or from a series the server recorded. Pure, no DOM.

/** The outcomes the chart and the rates show, in drawing order. */
export const SERIES = ['completed', 'failed', 'interrupted', 'rejected'];
/** Seconds of buckets kept: the chart's longest span and a little more. */
export const KEEP_SECONDS = 185;

export function emptyRates() {
  return { buckets: {}, lastCounters: null, lastAt: 0 };
}

/** Starts counting growth from these counters (a new connection: its first snapshot). */
export function baseline(rates, counters, at) {
  return { ...rates, lastCounters: counters, lastAt: at };
}

/**
 * Adds the counters' growth since the last snapshot to the bucket of the second `at` falls in.
 * Nothing is added for a first snapshot, a snapshot not newer than the last one, or counters that
 * went down (the server restarted and counts from zero again).
 */
export function record(rates, counters, at) {
  const last = rates.lastCounters;
  const next = { ...rates, lastCounters: counters, lastAt: at };
  if (!last || !(at > rates.lastAt)) return next;
  const deltas = SERIES.map((k) => (counters[k] || 0) - (last[k] || 0));
  if (deltas.some((d) => d < 0)) return next;
  const second = Math.floor(at / 1000);
  const bucket = { ...(rates.buckets[second] || zero()) };
  SERIES.forEach((k, i) => { bucket[k] += deltas[i]; });
  next.buckets = prune({ ...rates.buckets, [second]: bucket }, second);
  return next;
}

/**
 * Folds in a series the server recorded ([{at, completed, failed, interrupted, rejected}], `at`
 * being the epoch ms of the second's start). The server counted every outcome, so its numbers
 * replace what the page had for those seconds.
 */
export function foldSeries(rates, series) {
  if (!Array.isArray(series) || series.length === 0) return rates;
  const buckets = { ...rates.buckets };
  let newest = -Infinity;
  for (const entry of series) {
    if (!entry || typeof entry.at !== 'number') continue;
    const second = Math.floor(entry.at / 1000);
    const bucket = zero();
    for (const k of SERIES) {
      const v = entry[k];
      bucket[k] = Number.isFinite(v) && v > 0 ? v : 0;
    }
    buckets[second] = bucket;
    newest = Math.max(newest, second);
  }
  if (newest === -Infinity) return rates;
  const latest = Math.max(newest, ...Object.keys(buckets).map(Number));
  return { ...rates, buckets: prune(buckets, latest) };
}

/**
 * The mean outcomes per second over the `window` whole seconds that end with second `end`
 * (epoch seconds, inclusive); seconds with no bucket count as zero.
 */
export function ratesOver(buckets, end, window) {
  const out = zero();
  if (!(window > 0)) return out;
  for (let t = end - window + 1; t <= end; t++) {
    const b = buckets[t];
    if (b) SERIES.forEach((k) => { out[k] += b[k]; });
  }
  SERIES.forEach((k) => { out[k] /= window; });
  return out;
}

/** The last whole second before `nowMs` (the current one is not complete yet). */
export function lastWholeSecond(nowMs) {
  return Math.floor(nowMs / 1000) - 1;
}

function zero() {
  return { completed: 0, failed: 0, interrupted: 0, rejected: 0 };
}

function prune(buckets, newest) {
  for (const key of Object.keys(buckets)) {
    if (Number(key) < newest - KEEP_SECONDS) delete buckets[key];
  }
  return buckets;
}
