// The chart's numbers: which seconds it spans, its scale, its points and its labels. Pure, no
// DOM; the chart module draws what these return.
import { SERIES, lastWholeSecond } from './rates.js';

/** The SVG's own coordinate box (the SVG stretches it to the panel). */
export const BOX = { width: 800, height: 200, top: 16, bottom: 6 };
export const MIN_SECONDS = 60;
export const MAX_SECONDS = 180;

/**
 * How many seconds the chart spans when its newest second is `end`: the time since its first
 * data, at least MIN_SECONDS and at most MAX_SECONDS.
 */
export function span(buckets, end, min = MIN_SECONDS, max = MAX_SECONDS) {
  const keys = Object.keys(buckets).map(Number).filter((k) => k <= end);
  const have = keys.length ? end - Math.min(...keys) + 1 : 0;
  return Math.max(min, Math.min(max, have));
}

/**
 * The values to draw at time `nowMs`: {seconds, end, values: {completed: [...], ...}, peak},
 * oldest first, one value per whole second, zero where nothing happened. Values that are not
 * finite positive numbers are drawn as zero.
 */
export function chartData(buckets, nowMs) {
  const end = lastWholeSecond(nowMs);
  const seconds = span(buckets, end);
  const values = {};
  SERIES.forEach((k) => { values[k] = []; });
  let peak = 0;
  for (let t = end - seconds + 1; t <= end; t++) {
    const b = buckets[t];
    for (const k of SERIES) {
      const v = b && Number.isFinite(b[k]) && b[k] > 0 ? b[k] : 0;
      values[k].push(v);
      if (v > peak) peak = v;
    }
  }
  return { seconds, end, values, peak };
}

/** The top of the scale for a peak: 1 at least, else the next 1, 2, 2.5 or 5 × 10^n. */
export function niceMax(peak) {
  if (!(peak > 1)) return 1;
  if (!Number.isFinite(peak)) return Number.MAX_VALUE;
  const p = Math.pow(10, Math.floor(Math.log10(peak)));
  for (const m of [1, 2, 2.5, 5, 10]) if (peak <= m * p) return m * p;
  return 10 * p;
}

/**
 * The mapping from (index of `count` values, value) to box coordinates, for a scale topped at
 * `top`. One value sits at the right edge ("now"); values are clamped into the box.
 */
export function scale(top, count, box = BOX) {
  const usable = box.height - box.top - box.bottom;
  const baseline = box.height - box.bottom;
  return {
    x: (i) => (count > 1 ? (i / (count - 1)) * box.width : box.width),
    y: (v) => baseline - Math.min(1, Math.max(0, v / top)) * usable,
    baseline,
  };
}

/** An SVG `points` attribute for values under a scale: "x,y x,y …" with one decimal. */
export function points(values, s) {
  return values.map((v, i) => `${s.x(i).toFixed(1)},${s.y(v).toFixed(1)}`).join(' ');
}

/** The values of the horizontal grid lines: the baseline, quarters, and the top. */
export function gridValues(top) {
  return [0, 1, 2, 3, 4].map((g) => (top * g) / 4);
}

/** The labels under the chart, oldest first: "−60 s", "−40 s", "−20 s", "now" (minutes when whole). */
export function axisLabels(seconds) {
  const labels = [];
  for (let m = 0; m < 3; m++) {
    const ago = Math.round((seconds * (3 - m)) / 3);
    labels.push(ago >= 60 && ago % 60 === 0 ? `−${ago / 60} min` : `−${ago} s`);
  }
  labels.push('now');
  return labels;
}

/** The span in the chart's title: "last 60 seconds", "last 3 minutes". */
export function spanText(seconds) {
  return seconds >= 120 ? `last ${Math.round(seconds / 60)} minutes` : `last ${seconds} seconds`;
}
