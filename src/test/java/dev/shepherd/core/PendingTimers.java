package dev.shepherd.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a runtime's timer keeper holds, for tests: the timers a pool started and has not
 * cancelled, with their expiry, in the order started. Fires the earliest due first (the first
 * started among equals), as the runtime does.
 */
final class PendingTimers {
  private final Map<Timer, Long> pending = new LinkedHashMap<>();

  /** Follows a StartTimer or CancelTimer; true when a cancel removed a pending timer. */
  boolean observe(Effect effect) {
    if (effect instanceof Effect.StartTimer start) {
      pending.remove(start.timer());
      pending.put(start.timer(), start.at());
    } else if (effect instanceof Effect.CancelTimer cancel) {
      return pending.remove(cancel.timer()) != null;
    }
    return false;
  }

  /** The earliest timer due at {@code now}, or null. */
  Timer nextDue(long now) {
    Timer first = null;
    long firstAt = Long.MAX_VALUE;
    for (Map.Entry<Timer, Long> entry : pending.entrySet()) {
      if (entry.getValue() <= now && entry.getValue() < firstAt) {
        first = entry.getKey();
        firstAt = entry.getValue();
      }
    }
    return first;
  }

  /** The earliest expiry pending, or null. */
  Long nextExpiry() {
    Long next = null;
    for (long at : pending.values()) {
      if (next == null || at < next) {
        next = at;
      }
    }
    return next;
  }

  void remove(Timer timer) {
    pending.remove(timer);
  }

  void clear() {
    pending.clear();
  }

  Map<Timer, Long> asMap() {
    return Map.copyOf(pending);
  }
}
