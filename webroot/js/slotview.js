// What each tile says, and how tiles group by host: pure functions from the model to plain data
// the tiles module puts on the page.
import { clock } from './format.js';
import { lostWords, retirementWords } from './reasons.js';

export const PHASE_TEXT = {
  INSTALLING: 'INSTALLING', IDLE: 'IDLE', ASSIGNED: 'ASSIGNED', BACKING_OFF: 'BACKING OFF',
  RETIRED: 'RETIRED', LOST: 'LOST', DRAINING: 'DRAINING',
};

/**
 * A tile's content at server time `now`: {id, phase, phaseText, incarnation, restarts, jobs,
 * jobsText, noJob, fill, meta: [[label, value]], reason: {name, words} | null, countdown:
 * {until, leftMs} | null, note, restartable, label}. `note` is the line under the counters (last
 * exit, countdown, or why lost); `restartable` says whether an operator may put the slot back in
 * service (retired, but not because its host is lost: that slot comes back with its host);
 * `label` is the whole tile in one sentence for screen readers.
 */
export function tileView(slot, model, now) {
  const phaseText = PHASE_TEXT[slot.phase] || slot.phase;
  const jobs = (slot.assignments || []).map((a) => a.job);
  const capacity = slot.capacity == null ? '?' : slot.capacity;
  const fill = slot.capacity > 0 ? Math.min(1, (slot.inFlight || 0) / slot.capacity) : 0;
  let reason = null;
  let countdown = null;
  let note = '';
  const lastExit = model.lastExits[slot.id];
  if (slot.phase === 'RETIRED') {
    const name = slot.retirement || 'unknown';
    reason = { name, words: retirementWords(slot, model.retirements[slot.id], lastExit) };
  } else if (slot.phase === 'BACKING_OFF' && typeof slot.backoffUntil === 'number') {
    const leftMs = Math.max(0, slot.backoffUntil - now);
    countdown = { until: slot.backoffUntil, leftMs };
    note = `restarting in ${(leftMs / 1000).toFixed(1)} s`;
  } else if (slot.phase === 'LOST') {
    note = lostWords(slot, hostById(model.snapshot, slot.host));
  } else if (lastExit) {
    note = `last exit: ${lastExit.exit} at ${clock(lastExit.at).slice(0, 8)}`;
  }
  const reported = (model.progress || {})[slot.id];
  const progress = reported && jobs.includes(reported.job) ? progressText(reported.progress) : '';
  const jobsText = jobs.length ? jobs.join(', ') + (progress ? ` (${progress})` : '')
    : slot.phase === 'RETIRED' ? 'out of service' : slot.phase === 'LOST' ? 'out of reach' : 'no job';
  const said = reason ? `reason: ${reason.name}${reason.words ? `, ${reason.words}` : ''}` : note;
  return {
    id: slot.id,
    phase: slot.phase,
    phaseText,
    incarnation: slot.incarnation,
    restarts: slot.restarts,
    jobs,
    jobsText,
    progress,
    noJob: jobs.length === 0,
    fill,
    meta: [['in flight', `${slot.inFlight || 0}/${capacity}`], ['incarnation', slot.incarnation],
      ['restarts', slot.restarts]],
    reason,
    countdown,
    note,
    restartable: slot.phase === 'RETIRED' && slot.retirement !== 'HOST_LOST',
    label: `${slot.id}: ${phaseText}${jobs.length ? `, running ${jobs.join(', ')}` : ''}`
      + `, incarnation ${slot.incarnation}, ${slot.restarts} restarts${said ? `, ${said}` : ''}`,
  };
}

/**
 * A progress report in a few words (T2): `step 2/4` for the demo worker's `{step, of}`, else its
 * JSON, clipped to 40 characters; '' when there is none.
 */
export function progressText(progress) {
  if (progress == null || typeof progress !== 'object') return '';
  if (typeof progress.step === 'number' && typeof progress.of === 'number') {
    return `step ${progress.step}/${progress.of}`;
  }
  const text = JSON.stringify(progress);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * The snapshot's slots grouped by where they run: this pool's own (local) slots first, then each
 * host in the snapshot's order, then hosts only the slots name. Each group is {key, host, title,
 * lost, since, slots}; a snapshot with no hosts gives one local group with no title. A host is
 * lost when the snapshot says so or when every one of its slots is LOST.
 */
export function hostGroups(snapshot) {
  if (!snapshot) return [];
  const hosts = Array.isArray(snapshot.hosts) ? snapshot.hosts : [];
  const local = snapshot.slots.filter((s) => !s.host);
  const remote = snapshot.slots.filter((s) => s.host);
  if (hosts.length === 0 && remote.length === 0) {
    return [{ key: 'local', host: null, title: null, lost: false, since: null, slots: local }];
  }
  const groups = [];
  if (local.length) {
    groups.push({ key: 'local', host: null, title: 'local', lost: false, since: null, slots: local });
  }
  const order = hosts.map((h) => h.id);
  for (const s of remote) if (!order.includes(s.host)) order.push(s.host);
  for (const id of order) {
    const host = hosts.find((h) => h.id === id) || { id, node: null, state: null, since: null };
    const slots = remote.filter((s) => s.host === id);
    const lost = host.state === 'LOST' || (slots.length > 0 && slots.every((s) => s.phase === 'LOST'));
    groups.push({ key: `host:${id}`, host, title: `host ${id}`, lost, since: host.since ?? null, slots });
  }
  return groups;
}

/** A group's one-line state: "UP · node n1 · 2 slots" or "LOST since 12:03:04 · node n1 · 2 slots". */
export function groupStatus(group) {
  if (!group.host) return `on the coordinator's node · ${group.slots.length} ${group.slots.length === 1 ? 'slot' : 'slots'}`;
  const parts = [];
  if (group.lost) {
    parts.push(typeof group.since === 'number' ? `LOST since ${clock(group.since).slice(0, 8)}` : 'LOST');
  } else {
    parts.push(group.host.state || 'UP');
  }
  if (group.host.node) parts.push(`node ${group.host.node}`);
  parts.push(`${group.slots.length} ${group.slots.length === 1 ? 'slot' : 'slots'}`);
  return parts.join(' · ');
}

function hostById(snapshot, id) {
  if (!snapshot || !id || !Array.isArray(snapshot.hosts)) return null;
  return snapshot.hosts.find((h) => h.id === id) || null;
}
