// The dead-letter panel on the page (J5): the count (the snapshot's), the newest entries with
// their reason, attempts and last slot, and Replay and Discard on each. Discard asks for a second
// click within ARM_MS, since it loses the payload for good.
import { $, el } from './dom.js';
import { listWords, rowWords } from './deadletters.js';

export const ARM_MS = 4000;

const armed = new Map(); // job -> until (ms), the Discard buttons waiting for their second click
let current = null; // the list shown
let count = null; // the snapshot's count

/** The count in the heading and the line under the list, from the snapshot. */
export function renderDeadCount(snapshot) {
  count = snapshot && typeof snapshot.deadLetters === 'number' ? snapshot.deadLetters : null;
  const badge = $('dead-count');
  badge.textContent = count == null ? '—' : String(count);
  badge.dataset.count = String(count ?? 0);
  renderHint();
}

/** Puts a list on the page (null: none read yet, for another pool or at start). */
export function renderDeadList(list) {
  current = list;
  const ol = $('dead-list');
  const rows = list ? list.rows : [];
  const now = Date.now();
  ol.replaceChildren(...rows.map((row) => {
    const li = el('li');
    li.dataset.job = row.job;
    li.dataset.reason = row.reason;
    const head = el('div', 'dead-head');
    const reason = el('span', 'dead-reason', row.reason);
    reason.dataset.reason = row.reason;
    head.append(el('span', 'job', row.job), reason);
    const meta = el('div', 'dead-meta', rowWords(row));
    if (row.detail) meta.title = row.detail;
    const actions = el('div', 'dead-actions');
    const replay = el('button', 'replay', 'Replay');
    replay.type = 'button';
    replay.dataset.job = row.job;
    replay.setAttribute('aria-label', `Replay job ${row.job}: submit its payload again`);
    const discard = el('button', 'discard');
    discard.type = 'button';
    discard.dataset.job = row.job;
    armDiscard(discard, (armed.get(row.job) || 0) > now);
    actions.append(replay, discard);
    li.append(head, actions, meta);
    return li;
  }));
  $('dead-empty').hidden = rows.length > 0 || !list;
  renderHint();
}

/** Says why the list could not be read, where the list's summary goes. */
export function renderDeadError(text) {
  const hint = $('dead-hint');
  hint.textContent = text;
  hint.classList.add('err');
}

/**
 * Wires the buttons: `replay(job)` and `discard(job)` answer [text, ok]; `refresh()` reads the
 * list again.
 */
export function startDeadPanel({ replay, discard, refresh }) {
  $('dead-refresh').addEventListener('click', () => refresh());
  $('dead-list').addEventListener('click', async (e) => {
    const button = e.target.closest('button');
    if (!button || !button.dataset.job) return;
    const job = button.dataset.job;
    if (button.classList.contains('discard') && !((armed.get(job) || 0) > Date.now())) {
      armed.set(job, Date.now() + ARM_MS);
      armDiscard(button, true);
      setTimeout(() => {
        if ((armed.get(job) || 0) <= Date.now()) {
          armed.delete(job);
          if (button.isConnected) armDiscard(button, false);
        }
      }, ARM_MS + 50);
      return;
    }
    armed.delete(job);
    button.disabled = true;
    const [text, ok] = await (button.classList.contains('replay') ? replay(job) : discard(job));
    button.disabled = false;
    result(text, ok);
  });
}

/** Forgets the list and any armed button (another pool is shown). */
export function clearDeadPanel() {
  armed.clear();
  renderDeadList(null);
  result('', true);
}

function armDiscard(button, on) {
  button.dataset.armed = String(on);
  button.textContent = on ? 'Discard?' : 'Discard';
  button.setAttribute('aria-label', on ? `Discard job ${button.dataset.job} for good: click again to confirm`
    : `Discard job ${button.dataset.job}`);
}

function renderHint() {
  const hint = $('dead-hint');
  if (!current) return;
  hint.classList.remove('err');
  hint.textContent = listWords(current, count);
}

function result(text, ok) {
  const r = $('dead-result');
  r.textContent = text;
  r.className = `result ${ok ? 'ok' : 'err'}`;
}
