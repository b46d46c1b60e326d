// Why things happened, in words: budget refusals, retirements, stops and job interruptions.
// Pure functions, no DOM. The sentences of an incident (J8) are the pool log's too
// (runtime/IncidentWords); src/test/js/incident-words.json holds the cases both are tested with.
import { clock, human, plural } from './format.js';

/** Jobs a sentence names; more are counted. */
export const JOBS_NAMED = 3;

/**
 * The pool's restart budget and the slot's own restarts, e.g. "the pool's restart budget is
 * spent (5 of 5 restarts in the last 10 s across all slots; w-2 itself restarted 1 time)".
 * `refusal` is a budget event with the window the pool had then (`windowMs`, null for a budget
 * counted over the pool's whole life).
 */
export function budgetWords(refusal) {
  const used = refusal.restartsInWindow || 0;
  const max = refusal.maximumRestarts || 0;
  const requested = refusal.replacementsRequested || 0;
  const own = typeof refusal.slotRestarts === 'number'
    ? `; ${refusal.worker} itself restarted ${plural(refusal.slotRestarts, 'time')}` : '';
  if (max === 0) return `the pool's restart budget allows no restarts (maxRestarts 0${own})`;
  const window = refusal.windowMs == null ? 'over the pool\'s lifetime' : `in the last ${human(refusal.windowMs)}`;
  const verdict = requested > 1 && used < max ? `has no room for ${requested} restarts` : 'is spent';
  return `the pool's restart budget ${verdict} (${used} of ${plural(max, 'restart')} ${window} across all slots${own})`;
}

/** "while running job a", "… jobs a and b", "… 5 jobs: a, b, c, …", "with no job running". */
export function runningWords(jobs, jobCount) {
  const list = Array.isArray(jobs) ? jobs.map(String) : [];
  const count = Math.max(typeof jobCount === 'number' ? jobCount : 0, list.length);
  if (count === 0) return 'with no job running';
  const named = list.slice(0, JOBS_NAMED);
  if (count === 1) return `while running job ${named[0]}`;
  if (count <= JOBS_NAMED && named.length === count) {
    return `while running jobs ${named.slice(0, -1).join(', ')} and ${named[count - 1]}`;
  }
  return `while running ${count} jobs: ${named.join(', ')}, …`;
}

/** How an incarnation ended and what it was running: "it stopped (CRASH: boom) while running job j-1". */
export function stopWords(exit, cause, jobs, jobCount) {
  return `it stopped (${cause == null ? exit : `${exit}: ${cause}`}) ${runningWords(jobs, jobCount)}`;
}

/** The budget, then the stop when the refusal says how its slot stopped (`withCause`: its cause too). */
export function refusalWords(refusal, withCause = true) {
  const budget = budgetWords(refusal);
  if (!refusal.exit) return budget;
  return `${budget}; ${stopWords(refusal.exit, withCause ? refusal.cause : null, refusal.jobs, refusal.jobCount)}`;
}

/** A budget refusal's log line. */
export function refusalLine(refusal) {
  const then = refusal.reaction === 'STOP_POOL' ? 'the pool stops (onBudgetExceeded STOP_POOL)'
    : `${refusal.worker} retires`;
  return `restart budget refused replacing ${refusal.worker}: ${refusalWords(refusal)}; ${then}`;
}

/** The log line of the retirement a budget refusal caused. */
export function retiredByBudgetLine(refusal) {
  return `${refusal.worker} retired (REPLACEMENT_UNAVAILABLE): ${refusalWords(refusal)}`;
}

/** A poisoned job (J2): "job j-9 is poison: its worker stopped 2 times while running it (…)". */
export function poisonWords(job, reason) {
  const last = (reason && reason.last) || {};
  const how = last.cause == null ? last.exit : `${last.exit}: ${last.cause}`;
  return `job ${job} is poison: its worker stopped ${plural(reason.stops, 'time')} while running it`
    + ` (the last time ${last.worker}, ${how}); answered interrupted (POISON), not run again`;
}

/**
 * Why a retired slot is out of service, in words, from what the page knows: the retirement it
 * saw happen (`seen`: {retirement, budget}, budget being the refusal that caused it, if any),
 * the slot's last exit, and its host. Null when there is nothing to say beyond the name. A tile
 * leaves the stop's cause out (the log line has it).
 */
export function retirementWords(slot, seen, lastExit) {
  const name = slot.retirement;
  const witnessed = seen && seen.retirement === name ? seen : null;
  switch (name) {
    case 'REPLACEMENT_UNAVAILABLE':
      if (witnessed && witnessed.budget) return refusalWords(witnessed.budget, false);
      if (witnessed) {
        return `its restart policy does not replace it${lastExit ? ` after a ${lastExit.exit} exit` : ''}`;
      }
      return `not replaced by its supervisor (restart policy or budget)${lastExit ? ` after a ${lastExit.exit} exit` : ''}`;
    case 'CREATION_REJECTED':
      return 'its worker failed to start';
    case 'HOST_LOST':
      return slot.host ? `host ${slot.host} stayed lost past the grace period`
        : 'its host stayed lost past the grace period';
    default:
      return null;
  }
}

/** A job's interruption reason as a short phrase ("w-2 stopped (CRASH)"). */
export function interruption(r) {
  if (!r) return 'unknown';
  switch (r.kind) {
    case 'WORKER_STOPPED': return `${r.worker} stopped (${r.exit})`;
    case 'AFFINITY_RETIRED': return `${r.worker} retired (${r.retirement})`;
    case 'ATTEMPTS_EXHAUSTED': return `attempts exhausted, last: ${interruption(r.last)}`;
    case 'POISON': return `poison after ${plural(r.stops, 'stop')}, last: ${interruption(r.last)}`;
    default: return r.kind || String(r);
  }
}

/** Why a LOST slot is out of reach: "host h1 unreachable since 12:03:04". */
export function lostWords(slot, host) {
  const id = slot.host || (host && host.id);
  const since = host && typeof host.since === 'number' ? ` since ${clock(host.since).slice(0, 8)}` : '';
  return id ? `host ${id} unreachable${since}` : `host unreachable${since}`;
}

/**
 * A reason name cut after each underscore, so a narrow tile wraps it between words
 * ("REPLACEMENT_" "UNAVAILABLE") and never inside one.
 */
export function nameParts(name) {
  return String(name).split(/(?<=_)/);
}
