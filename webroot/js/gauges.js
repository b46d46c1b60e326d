// The pool's gauges: its state badge, the backlog and restart-budget meters, and the counters.
import { $, el } from './dom.js';
import { human } from './format.js';

const COUNTERS = ['accepted', 'completed', 'failed', 'interrupted', 'rejected', 'restarts'];

export function renderGauges(snapshot) {
  renderPoolState(snapshot);
  if (!snapshot) return;
  const { backlog, budget: b, counters: c } = snapshot;
  meter($('backlog'), backlog.length, backlog.capacity, `${backlog.length} of ${backlog.capacity} jobs`);
  $('backlog-text').textContent = `${backlog.length} / ${backlog.capacity}`;
  meter($('budget'), b.restartsInWindow, b.maxRestarts, `${b.restartsInWindow} of ${b.maxRestarts} restarts used`);
  $('budget-text').textContent = `${b.restartsInWindow} / ${b.maxRestarts}`;
  $('budget-window').textContent = b.windowMs == null ? 'restarts counted over the pool\'s lifetime'
    : `restarts in the last ${human(b.windowMs)}; ${c.budgetRefusals || 0} refused so far`;
  $('counters').replaceChildren(...COUNTERS.map((k) => {
    const d = el('div');
    d.dataset.counter = k;
    d.append(el('dt', null, k), el('dd', null, String(c[k] ?? 0)));
    return d;
  }));
}

function renderPoolState(snapshot) {
  const p = $('pool-state');
  const s = snapshot ? snapshot.state : '';
  p.dataset.state = s;
  p.textContent = s || '—';
}

function meter(node, value, max, text) {
  node.setAttribute('aria-valuemax', String(max));
  node.setAttribute('aria-valuenow', String(value));
  node.setAttribute('aria-valuetext', text);
  const ratio = max > 0 ? Math.min(1, value / max) : value > 0 ? 1 : 0;
  node.firstElementChild.style.width = `${(ratio * 100).toFixed(1)}%`;
  node.classList.toggle('full', ratio >= 1 && value > 0);
  node.classList.toggle('warn', ratio >= 0.7 && ratio < 1);
}
