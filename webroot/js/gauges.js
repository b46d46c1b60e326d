// The pool's gauges: its state badge (with /health's verdict), the backlog meter (ready and
// waiting jobs apart) and the restart-budget meter, and the counters.
import { $, el } from './dom.js';
import { clock, human } from './format.js';
import { poolHealth } from './health.js';

const COUNTERS = ['accepted', 'completed', 'failed', 'interrupted', 'rejected', 'restarts'];

export function renderGauges(snapshot) {
  renderPoolState(snapshot);
  if (!snapshot) return;
  const { backlog, budget: b, counters: c } = snapshot;
  renderBacklog(backlog);
  meter($('budget'), b.restartsInWindow, b.maxRestarts, `${b.restartsInWindow} of ${b.maxRestarts} restarts used`);
  $('budget-text').textContent = `${b.restartsInWindow} / ${b.maxRestarts}`;
  $('budget-window').textContent = b.windowMs == null ? 'the pool\'s restarts, across all slots, over its lifetime'
    : `the pool's restarts, across all slots, in the last ${human(b.windowMs)}; ${c.budgetRefusals || 0} refused so far`;
  $('counters').replaceChildren(...COUNTERS.map((k) => {
    const d = el('div');
    d.dataset.counter = k;
    d.append(el('dt', null, k), el('dd', null, String(c[k] ?? 0)));
    return d;
  }));
}

/**
 * The badge: the pool's state while /health would say UP, DOWN (with /health's reason beside
 * it) when it would say DOWN, by the same rule (J8).
 */
function renderPoolState(snapshot) {
  const p = $('pool-state');
  const why = $('pool-health');
  const health = poolHealth(snapshot);
  p.dataset.state = snapshot ? snapshot.state : '';
  p.dataset.health = health ? health.status : '';
  p.textContent = !health ? '—' : health.status === 'UP' ? snapshot.state : 'DOWN';
  p.title = health ? `/health: ${health.status}${health.reason ? ` (${health.reason})` : ''}` : '';
  why.hidden = !(health && health.reason);
  why.textContent = health && health.reason ? health.reason : '';
  why.title = why.textContent;
}

/** The backlog meter: ready jobs, then those waiting for their due time (J3, J4), in one bound. */
function renderBacklog(backlog) {
  const length = backlog.length || 0;
  const waiting = Math.min(length, backlog.waiting || 0);
  const ready = length - waiting;
  const node = $('backlog');
  meter(node, length, backlog.capacity,
    `${length} of ${backlog.capacity} jobs: ${ready} ready, ${waiting} waiting for their due time`);
  const [readyBar, waitingBar] = node.children;
  const share = (n) => (backlog.capacity > 0 ? Math.min(1, n / backlog.capacity) : n > 0 ? 1 : 0);
  readyBar.style.width = `${(share(ready) * 100).toFixed(1)}%`;
  waitingBar.style.width = `${(Math.min(share(waiting), 1 - share(ready)) * 100).toFixed(1)}%`;
  node.dataset.ready = String(ready);
  node.dataset.waiting = String(waiting);
  $('backlog-text').textContent = `${length} / ${backlog.capacity}`;
  const due = waiting > 0 && typeof backlog.nextDue === 'number' ? `, the next due at ${clock(backlog.nextDue).slice(0, 8)}` : '';
  const key = (cls, text) => {
    const span = el('span', `part ${cls}`);
    span.append(el('span', 'key', ''), text);
    return span;
  };
  $('backlog-detail').replaceChildren(key('ready', `${ready} ready`), ' · ', key('waiting', `${waiting} waiting${due}`));
}

function meter(node, value, max, text) {
  node.setAttribute('aria-valuemax', String(max));
  node.setAttribute('aria-valuenow', String(value));
  node.setAttribute('aria-valuetext', text);
  const ratio = max > 0 ? Math.min(1, value / max) : value > 0 ? 1 : 0;
  if (node.children.length === 1) node.firstElementChild.style.width = `${(ratio * 100).toFixed(1)}%`;
  node.classList.toggle('full', ratio >= 1 && value > 0);
  node.classList.toggle('warn', ratio >= 0.7 && ratio < 1);
}
