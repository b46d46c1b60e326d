// Whether the pool is up, from its snapshot alone: the rule of GET /health (web/PoolHealth), so
// the badge never says RUNNING while /health says DOWN (J8). Both are tested against
// src/test/js/health-cases.json. Pure, no DOM.

/**
 * {status: 'UP' | 'DOWN', reason} for a snapshot (reason null when UP), or null without one:
 * DOWN while the pool is not RUNNING, or when it has slots and every one is retired.
 */
export function poolHealth(snapshot) {
  if (!snapshot) return null;
  if (snapshot.state !== 'RUNNING') return { status: 'DOWN', reason: `the pool is ${snapshot.state}` };
  const slots = Array.isArray(snapshot.slots) ? snapshot.slots : [];
  if (slots.length > 0 && slots.every((s) => s.phase === 'RETIRED')) {
    return { status: 'DOWN', reason: `every slot is retired: ${slots.map((s) => `${s.id} ${s.retirement ?? null}`).join(', ')}` };
  }
  return { status: 'UP', reason: null };
}
