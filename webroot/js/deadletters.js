// The dead-letter panel's words and paths (J5): what GET /api/pools/<name>/dead answers, as rows,
// and what a replay or a discard answered, in words. Pure functions, no DOM, no network.
import { clock, plural } from './format.js';

/** Entries the panel lists (the newest). */
export const DEAD_LIMIT = 20;

/** `/api/pools/<pool>/dead`, or `…/dead/<job>` with a job, or `…/dead/<job>/<action>`. */
export function deadPath(pool, job, action) {
  let path = `/api/pools/${encodeURIComponent(pool)}/dead`;
  if (job != null) path += `/${encodeURIComponent(job)}`;
  if (action) path += `/${action}`;
  return path;
}

/** The list's URL: the newest DEAD_LIMIT entries. */
export function listPath(pool) {
  return `${deadPath(pool)}?limit=${DEAD_LIMIT}`;
}

/**
 * The list as the panel shows it, from the body of GET …/dead: {size, evicted, rows: [{job, key,
 * reason, attempts, worker, ended, detail, at}]}, or null for a body of another shape. `attempts`
 * counts every attempt (the answer's count; an entry lists the latest few); `worker`, `ended` and
 * `detail` are the last attempt's.
 */
export function deadList(body) {
  if (!body || typeof body !== 'object' || !Array.isArray(body.entries)) return null;
  const rows = body.entries.filter((e) => e && typeof e === 'object' && typeof e.job === 'string').map((e) => {
    const attempts = Array.isArray(e.attempts) ? e.attempts.filter((a) => a && typeof a === 'object') : [];
    const last = attempts.length ? attempts[attempts.length - 1] : {};
    const answered = e.answer && typeof e.answer.attempts === 'number' ? e.answer.attempts : null;
    return {
      job: e.job,
      key: typeof e.key === 'string' ? e.key : null,
      reason: typeof e.reason === 'string' ? e.reason : 'UNKNOWN',
      attempts: answered ?? attempts.length,
      worker: typeof last.worker === 'string' ? last.worker : null,
      ended: typeof last.ended === 'string' ? last.ended : null,
      detail: typeof last.detail === 'string' ? last.detail : null,
      at: typeof e.at === 'number' ? e.at : null,
    };
  });
  return {
    size: typeof body.size === 'number' ? body.size : rows.length,
    evicted: typeof body.evicted === 'number' ? body.evicted : 0,
    rows,
  };
}

/** A row's second line: "2 attempts · last on w-1 (CRASH) · key k · 12:03:04". */
export function rowWords(row) {
  const parts = [plural(row.attempts, 'attempt')];
  if (row.worker) parts.push(`last on ${row.worker}${row.ended ? ` (${row.ended})` : ''}`);
  if (row.key) parts.push(`key ${row.key}`);
  if (row.at != null) parts.push(clock(row.at).slice(0, 8));
  return parts.join(' · ');
}

/** The line under the list: how many are kept, shown and evicted. */
export function listWords(list, count) {
  if (!list) return '';
  const kept = typeof count === 'number' ? count : list.size;
  const shown = list.rows.length < kept ? `the newest ${list.rows.length} of ${kept} shown` : plural(kept, 'job') + ' kept';
  return list.evicted > 0 ? `${shown}; ${list.evicted} evicted to make room` : shown;
}

/** Why the list could not be read, from the answer to GET …/dead. */
export function listError(status, json) {
  if (status === 0) return `dead letters: the server did not answer (${json.message || 'network error'})`;
  if (status === 404 && json.error === 'NOT_FOUND') {
    return 'dead letters: this server has no dead-letter routes (NOT_FOUND)';
  }
  return `dead letters: ${json.error || `HTTP ${status}`}${json.message ? `: ${json.message}` : ''}`;
}

/** [text, ok] for the answer to POST …/dead/<job>/replay. */
export function replayResult(job, status, json) {
  if (status === 200 && json.type === 'accepted') return [`job ${json.job || job} replayed: accepted again`, true];
  if (json.type === 'rejected') {
    return [`job ${job} not replayed: rejected ${json.reason}${json.message ? ` (${json.message})` : ''}`, false];
  }
  return [failure('replayed', job, status, json), false];
}

/** [text, ok] for the answer to DELETE …/dead/<job>. */
export function discardResult(job, status, json) {
  if (status === 200 && json.discarded === true) return [`job ${json.job || job} discarded`, true];
  return [failure('discarded', job, status, json), false];
}

function failure(what, job, status, json) {
  if (status === 404 && json.error === 'UNKNOWN_JOB') return `job ${job} not ${what}: it is no longer kept`;
  if (status === 0) return `job ${job} not ${what}: the server did not answer (${json.message || 'network error'})`;
  return `job ${job} not ${what}: ${json.error || `HTTP ${status}`}${json.message ? `: ${json.message}` : ''}`;
}
