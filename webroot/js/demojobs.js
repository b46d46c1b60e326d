// The demo worker's jobs the control panel offers, and the payload each one sends. Pure.

/** The argument field each kind of job asks for (null: none). */
export const ARGS = {
  echo: { label: 'Echo text', type: 'text', value: 'hello' },
  sleep: { label: 'Sleep (ms)', type: 'number', value: '500' },
  fail: { label: 'Failure message', type: 'text', value: 'requested failure' },
  crash: null,
  hang: null,
  exit: null,
};

/** The demo worker's payload for a kind of job and its argument. */
export function payload(kind, arg) {
  switch (kind) {
    case 'echo': return { echo: arg };
    case 'sleep': return { sleepMs: Number(arg), echo: `slept ${arg} ms` };
    case 'fail': return { fail: arg || 'requested failure' };
    case 'crash': return { crash: true };
    case 'hang': return { hang: true };
    case 'exit': return { exit: true };
    default: throw new Error(`unknown job kind ${kind}`);
  }
}

/** What the panel says after a batch of submissions ({status, json} answers): [text, ok]. */
export function submitSummary(answers) {
  const accepted = answers.filter((a) => a.json.type === 'accepted').map((a) => a.json.job);
  const refused = answers.filter((a) => a.json.type !== 'accepted');
  if (refused.length === 0) {
    return [`accepted ${accepted.length > 3 ? `${accepted.length} jobs` : accepted.join(', ')}`, true];
  }
  const first = refused[0];
  const why = first.json.reason || first.json.error || first.status;
  return [`${accepted.length} accepted, ${refused.length} refused: ${why}${first.json.message ? ` (${first.json.message})` : ''}`, false];
}
