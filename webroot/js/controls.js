// The control panel: submit demo jobs, rebalance a key, pause or resume the pool (F5), restart a
// retired slot (the button on its tile), and the access token they (and the dead-letter panel's
// buttons) carry.
import { $, el } from './dom.js';
import { ARGS, payload, submitSummary } from './demojobs.js';

const TOKEN_KEY = 'shepherd.token';

/**
 * Wires the panel. `pool()` answers the pool shown; `onNote(kindClass, kind, text)` puts a line
 * of the page's own in the event log.
 */
export function startControls({ pool, onNote }) {
  $('job-kind').addEventListener('change', updateArg);
  $('submit-form').addEventListener('submit', (e) => submitJobs(e, pool()).catch((x) => result(String(x), false)));
  $('rebalance-form').addEventListener('submit', (e) => rebalance(e, pool(), onNote).catch((x) => result(String(x), false)));
  $('pause-form').addEventListener('submit', (e) => pauseOrResume(e, pool()).catch((x) => result(String(x), false)));
  // Restart buttons live on the tiles, which come and go: one listener for all of them.
  $('tiles').addEventListener('click', (e) => {
    const button = e.target.closest('button.restart');
    if (button) restartSlot(button, pool()).catch((x) => result(String(x), false));
  });
  const token = $('token');
  token.value = sessionStorage.getItem(TOKEN_KEY) || '';
  token.addEventListener('change', () => sessionStorage.setItem(TOKEN_KEY, token.value.trim()));
  updateArg();
}

/** Offers the slots of the pool shown as rebalance targets. */
export function fillWorkers(snapshot) {
  const select = $('rebalance-worker');
  const ids = snapshot ? snapshot.slots.map((s) => s.id) : [];
  const have = Array.from(select.options).map((o) => o.value);
  if (have.join() === ids.join()) return;
  const current = select.value;
  select.replaceChildren(...ids.map((id) => {
    const o = el('option', null, id);
    o.value = id;
    return o;
  }));
  if (ids.includes(current)) select.value = current;
}

function updateArg() {
  const spec = ARGS[$('job-kind').value];
  const input = $('job-arg');
  $('job-arg-row').hidden = !spec;
  input.disabled = !spec;
  if (spec) {
    $('job-arg-label').textContent = spec.label;
    input.type = spec.type;
    input.value = spec.value;
  }
}

/**
 * The headers of a request that changes a pool: JSON, and the bearer token when one is given.
 * (The browser adds Origin and Sec-Fetch-Site, which the server's same-origin check reads.)
 */
export function headers() {
  const h = { 'Content-Type': 'application/json' };
  const token = $('token').value.trim();
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

function result(text, ok) {
  const r = $('control-result');
  r.textContent = text;
  r.className = `result ${ok ? 'ok' : 'err'}`;
}

async function post(path, body) {
  const res = await fetch(path, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
  let json = {};
  try {
    json = await res.json();
  } catch (e) {
    // not JSON: the status says enough
  }
  return { status: res.status, json };
}

async function submitJobs(ev, pool) {
  ev.preventDefault();
  const kind = $('job-kind').value;
  const arg = $('job-arg').value;
  if (kind === 'sleep' && !(Number(arg) >= 0)) {
    result('Sleep (ms): enter a number of milliseconds', false);
    return;
  }
  const count = Math.max(1, Math.min(100, Number($('job-count').value) || 1));
  const key = $('job-key').value.trim();
  const body = { payload: payload(kind, arg) };
  if (key) body.key = key;
  const path = `/api/pools/${encodeURIComponent(pool)}/jobs?wait=false`;
  const answers = await Promise.all(Array.from({ length: count }, () =>
    post(path, body).catch((e) => ({ status: 0, json: { message: String(e) } }))));
  result(...submitSummary(answers));
}

/**
 * Pauses the pool shown, or resumes it when it is paused: POST /api/pools/<pool>/pause or
 * /resume. The badge follows from the `flow` event the pool publishes.
 */
async function pauseOrResume(ev, pool) {
  ev.preventDefault();
  const button = $('pause-pool');
  const resume = button.dataset.paused === 'true';
  const { status, json } = await post(`/api/pools/${encodeURIComponent(pool)}/${resume ? 'resume' : 'pause'}`, {});
  if (status === 200) {
    result(json.paused ? `pool ${json.name} paused: running jobs finish, nothing new starts`
      : `pool ${json.name} resumed`, true);
  } else {
    result(`${json.error || status}: ${json.message || ''}`, false);
  }
}

/** Puts a retired slot back in service: POST /api/pools/<pool>/slots/<id>/restart. */
async function restartSlot(button, pool) {
  const slot = button.dataset.slot;
  button.disabled = true;
  const path = `/api/pools/${encodeURIComponent(pool)}/slots/${encodeURIComponent(slot)}/restart`;
  const { status, json } = await post(path, {});
  if (status === 200) {
    result(`${json.worker} is back in service as incarnation ${json.incarnation}`, true);
  } else {
    button.disabled = false;
    result(`${json.error || status}: ${json.message || ''}`, false);
  }
}

async function rebalance(ev, pool, onNote) {
  ev.preventDefault();
  const key = $('rebalance-key').value.trim();
  const worker = $('rebalance-worker').value;
  if (!key) {
    result('Key: enter the key to move', false);
    return;
  }
  const { status, json } = await post(`/api/pools/${encodeURIComponent(pool)}/rebalance`, { key, worker });
  if (status === 200) {
    result(`key ${json.key} now goes to ${json.worker}`, true);
    onNote('phase', 'rebalance', `key ${json.key} bound to ${json.worker}`);
  } else {
    result(`${json.error || status}: ${json.message || ''}`, false);
  }
}
