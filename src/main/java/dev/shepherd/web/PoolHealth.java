package dev.shepherd.web;

import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;

/**
 * Whether a pool is up, judged from its snapshot alone: the rule of {@code GET /health} (J8 in
 * docs/rules.md: the live view's pool badge says the same, by {@code webroot/js/health.js}, and
 * both are tested against {@code src/test/js/health-cases.json}). DOWN while the pool is not
 * RUNNING, or when it has slots and every one is retired; UP otherwise, including a pool of worker
 * hosts only that none has registered with yet (H8: it queues work). {@code reason} says why it is
 * DOWN, null when UP.
 */
record PoolHealth(boolean up, String reason) {

  static PoolHealth of(PoolSnapshot s) {
    if (s.state() != PoolState.RUNNING) {
      return new PoolHealth(false, "the pool is " + s.state());
    }
    if (!s.slots().isEmpty()
        && s.slots().stream().allMatch(slot -> slot.phase() == Phase.RETIRED)) {
      StringBuilder why = new StringBuilder("every slot is retired:");
      s.slots().forEach(slot -> why.append(' ').append(slot.id()).append(' ')
          .append(slot.retirement()).append(','));
      why.setLength(why.length() - 1);
      return new PoolHealth(false, why.toString());
    }
    return new PoolHealth(true, null);
  }
}
