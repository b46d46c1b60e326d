// Flow control on the page (F1, F5): the PAUSED badge with since when, the groups panel (the
// busiest groups: running, queued, limit, paused or held), and the Pause/Resume button's label.
// flowView is pure (tests read it); renderFlow puts it on the page.
import { $, el } from './dom.js';
import { clock } from './format.js';

/** What the page shows of a snapshot's flow control, at `now` (server time, epoch ms). */
export function flowView(snapshot, now) {
  if (!snapshot) return { paused: false, badge: '', button: 'Pause pool', groups: [], more: '' };
  const paused = snapshot.paused === true;
  const groups = (snapshot.groups || []).map((g) => ({
    name: g.name,
    running: g.running,
    queued: g.queued,
    limit: limitText(g),
    state: g.paused ? `paused since ${clock(g.pausedSince)}`
      : g.heldUntil != null && g.heldUntil > now ? `held ${Math.ceil((g.heldUntil - now) / 1000)} s (rate limited)`
        : g.concurrency > 0 && g.running >= g.concurrency ? 'at its limit' : '',
    paused: g.paused === true,
  }));
  const count = snapshot.groupCount || 0;
  return {
    paused,
    badge: paused ? `PAUSED since ${clock(snapshot.pausedSince)}` : '',
    button: paused ? 'Resume pool' : 'Pause pool',
    groups,
    more: count > groups.length ? `${count - groups.length} more groups not shown (the busiest first)` : '',
  };
}

/** "2 running · 100 queued · 5/1 s": a group's limits, "no limits" when it has none. */
function limitText(g) {
  const parts = [];
  if (g.concurrency > 0) parts.push(`${g.concurrency} running`);
  if (g.queueCapacity > 0) parts.push(`${g.queueCapacity} queued`);
  if (g.weight > 1) parts.push(`weight ${g.weight}`);
  if (g.rateLimit) parts.push(`${g.rateLimit.permits}/${g.rateLimit.perMs >= 1000 && g.rateLimit.perMs % 1000 === 0
    ? `${g.rateLimit.perMs / 1000} s` : `${g.rateLimit.perMs} ms`}`);
  return parts.length ? parts.join(' · ') : 'no limits';
}

/** Puts the badge, the groups panel and the button label on the page. */
export function renderFlow(snapshot, now) {
  const v = flowView(snapshot, now);
  const badge = $('pool-paused');
  badge.hidden = !v.paused;
  badge.textContent = v.badge;
  const button = $('pause-pool');
  button.textContent = v.button;
  button.dataset.paused = String(v.paused);
  $('groups-empty').hidden = v.groups.length > 0;
  $('groups-more').textContent = v.more;
  $('groups').replaceChildren(...v.groups.map((g) => {
    const row = el('tr');
    row.dataset.paused = String(g.paused);
    const name = el('th', null);
    name.title = g.name; // a long name is cut to fit the column
    name.append(el('span', 'group-name', g.name));
    if (g.state) name.append(el('span', 'group-state', g.state));
    row.append(name, el('td', 'num', String(g.running)), el('td', 'num', String(g.queued)),
      el('td', 'group-limit', g.limit));
    return row;
  }));
}
