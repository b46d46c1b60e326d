// Coordinator high availability as the page shows it: the snapshot's `ha` block ({enabled,
// available, active, term}) in words for the pool's header, and a failover (the term grew
// between two snapshots) as a notice and a log line. Pure functions over plain data, no DOM.

/** How long the failover notice stays on the page after the frame that showed it. */
export const FAILOVER_NOTICE_MS = 30000;

/** A node id short enough for the header: the first 8 characters of a long (UUID) id. */
export function shortNode(id) {
  if (typeof id !== 'string' || id === '') return 'none';
  return id.length > 12 ? id.slice(0, 8) : id;
}

/** The snapshot's `ha` block when the pool has HA on, else null (absent, or enabled:false). */
export function haOf(snapshot) {
  const ha = snapshot && snapshot.ha;
  if (!ha || typeof ha !== 'object' || ha.enabled !== true) return null;
  return ha;
}

/**
 * What the header shows for the pool's HA: null when HA is off; else {text, title, available},
 * e.g. "HA · active 3f2a9c1e · term 4", led by "HA unavailable" when the cluster has too few
 * members for a majority. `title` holds the full node id.
 */
export function haView(snapshot) {
  const ha = haOf(snapshot);
  if (!ha) return null;
  const available = ha.available === true;
  const term = Number.isInteger(ha.term) ? ha.term : '?';
  const active = typeof ha.active === 'string' && ha.active !== '' ? ha.active : null;
  const text = `${available ? 'HA' : 'HA unavailable'} · active ${shortNode(active)} · term ${term}`;
  const title = `${available ? 'HA available' : 'HA unavailable: fewer than three cluster members, '
    + 'so no majority can elect a standby'}; active coordinator on node ${active || 'none'}; term ${term}`;
  return { text, title, available };
}

/**
 * The failover between two consecutive snapshots of a pool, or null: {from, to, node} when both
 * have HA on and the term grew (a new leader took over; the active node may be the same one).
 */
export function failoverOf(previous, next) {
  const before = haOf(previous);
  const after = haOf(next);
  if (!before || !after || !Number.isInteger(before.term) || !Number.isInteger(after.term)) return null;
  if (after.term <= before.term) return null;
  return { from: before.term, to: after.term, node: typeof after.active === 'string' ? after.active : null };
}

/** "failover: term 3 → 4, now 3f2a9c1e". */
export function failoverText(failover) {
  return `failover: term ${failover.from} → ${failover.to}, now ${shortNode(failover.node)}`;
}

/**
 * The log line of a failover seen in a snapshot at `at`. It is the page's own line (`local`): a
 * snapshot is no event of the pool, and must not hide older events a history frame replays.
 */
export function failoverLine(failover, at) {
  return { at, kindClass: 'failover', kind: 'failover', text: failoverText(failover), local: true };
}

/** The notice to show at server time `now`: the failover's text while it is recent, else null. */
export function failoverNotice(model, now) {
  const f = model.failover;
  if (!f || !(now - f.at < FAILOVER_NOTICE_MS)) return null;
  return failoverText(f);
}
