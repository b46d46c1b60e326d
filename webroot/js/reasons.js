// Why things happened, in words: retirements and job interruptions. Pure functions, no DOM.
import { clock, human, plural } from './format.js';

/**
 * The words for a budget refusal, e.g. "restart budget exceeded: 6 restarts in 10 s (at most 5)".
 * `refusal` is a budget event with the window the pool had then (`windowMs`, null for a budget
 * counted over the pool's whole life).
 */
export function budgetWords(refusal) {
  const wanted = (refusal.restartsInWindow || 0) + (refusal.replacementsRequested || 0);
  const over = refusal.windowMs == null ? 'over the pool\'s lifetime' : `in ${human(refusal.windowMs)}`;
  return `restart budget exceeded: ${plural(wanted, 'restart')} ${over} (at most ${refusal.maximumRestarts})`;
}

/**
 * Why a retired slot is out of service, in words, from what the page knows: the retirement it
 * saw happen (`seen`: {retirement, budget}, budget being the refusal that caused it, if any),
 * the slot's last exit, and its host. Null when there is nothing to say beyond the name.
 */
export function retirementWords(slot, seen, lastExit) {
  const name = slot.retirement;
  const witnessed = seen && seen.retirement === name ? seen : null;
  switch (name) {
    case 'REPLACEMENT_UNAVAILABLE':
      if (witnessed && witnessed.budget) return budgetWords(witnessed.budget);
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
