// How the live view writes times, durations and rates. Pure functions, no DOM.

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** The local wall-clock time of an epoch-ms instant, "HH:MM:SS.mmm". */
export function clock(ms) {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A duration in the largest unit that keeps it short: "250 ms", "1.5 s", "10 s", "2 min". */
export function human(ms) {
  if (ms >= 60000) return `${(ms / 60000).toFixed(ms % 60000 ? 1 : 0)} min`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`;
  return `${ms} ms`;
}

/** A rate per second with as many decimals as its size deserves: "120", "12.5", "0.4". */
export function rate(v) {
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1);
  return v.toFixed(2).replace(/0$/, '');
}

/** A count for an axis label, with k/M/G/T so a huge scale stays a few characters wide. */
export function compact(n) {
  const units = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [size, unit] of units) {
    if (Math.abs(n) >= size) return `${+(n / size).toPrecision(3)}${unit}`;
  }
  return String(+n.toPrecision(3));
}

/** "1 restart", "6 restarts". */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
