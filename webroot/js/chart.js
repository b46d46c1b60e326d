// The throughput chart: outcomes per second as SVG lines, with its scale, axis and legend rates.
import { $ } from './dom.js';
import { BOX, axisLabels, chartData, gridValues, niceMax, points, scale, spanText } from './chartmath.js';
import { compact, rate } from './format.js';
import { SERIES, ratesOver } from './rates.js';

const COLORS = { completed: '#3fbf7f', failed: '#ff6b81', interrupted: '#f5a33b', rejected: '#b58cff' };
/** The legend's rates are the mean over this many seconds. */
const RATE_WINDOW = 5;
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** Draws the buckets as they stand at server time `now`. */
export function drawChart(buckets, now) {
  const chart = $('chart');
  const data = chartData(buckets, now);
  const top = niceMax(data.peak);
  const s = scale(top, data.seconds);
  chart.dataset.seconds = String(data.seconds);
  const desc = chart.querySelector('desc');
  chart.replaceChildren(desc);
  for (const v of gridValues(top)) {
    chart.append(svg('line', { class: 'grid', x1: 0, x2: BOX.width, y1: s.y(v), y2: s.y(v) }));
  }
  for (let m = 1; m < 3; m++) {
    const gx = (m * BOX.width) / 3;
    chart.append(svg('line', { class: 'grid', x1: gx, x2: gx, y1: 0, y2: BOX.height }));
  }
  const labels = $('chart-axis').children;
  axisLabels(data.seconds).forEach((text, i) => { labels[i].textContent = text; });
  $('chart-span').textContent = spanText(data.seconds);
  for (const k of SERIES) {
    const pts = points(data.values[k], s);
    if (k === 'completed') {
      chart.append(svg('polygon', { class: 'area', fill: COLORS[k],
        points: `0,${s.baseline} ${pts} ${BOX.width},${s.baseline}` }));
    }
    chart.append(svg('polyline', { class: `series s-${k}`, stroke: COLORS[k], points: pts, 'data-series': k }));
  }
  $('chart-ymax').textContent = `${compact(top)}/s`;
  chart.dataset.peak = String(data.peak);
  const recent = ratesOver(buckets, data.end, RATE_WINDOW);
  for (const k of SERIES) {
    const b = document.querySelector(`[data-rate="${k}"]`);
    if (b) b.textContent = rate(recent[k]);
  }
  desc.textContent = `Peak ${data.peak} per second over the last ${data.seconds} seconds. Last ${RATE_WINDOW} seconds: `
    + SERIES.map((k) => `${rate(recent[k])} ${k}`).join(', ') + ' per second.';
}
