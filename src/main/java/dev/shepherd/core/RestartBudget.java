package dev.shepherd.core;

import java.util.ArrayDeque;

/**
 * The restart budget (S2 in docs/rules.md): at most {@code maxRestarts} replacements within a
 * sliding window.
 *
 * <p>A decision to replace {@code k} slots at time {@code t} first forgets the replacements older
 * than the window ({@code t - stamp > window}), then is refused when {@code inWindow + k >
 * maxRestarts}. Example: maxRestarts 3, window 10 s, replacements at 0 s, 4 s and 8 s: a fourth
 * at 9 s is refused; at 10.5 s the one at 0 s has left the window, so it is allowed.
 */
final class RestartBudget {
  private final int maxRestarts;
  private final long windowMs;
  private final ArrayDeque<Long> stamps = new ArrayDeque<>();

  RestartBudget(int maxRestarts, long windowMs) {
    this.maxRestarts = maxRestarts;
    this.windowMs = windowMs;
  }

  int maxRestarts() {
    return maxRestarts;
  }

  long windowMs() {
    return windowMs;
  }

  /** Replacements within the window ending at {@code now}, without forgetting any. */
  int inWindow(long now) {
    if (windowMs == SupervisionSettings.INFINITE_WINDOW) {
      return stamps.size();
    }
    int count = 0;
    for (long stamp : stamps) {
      if (now - stamp <= windowMs) {
        count++;
      }
    }
    return count;
  }

  /** Forgets replacements that left the window ending at {@code now}. */
  void forget(long now) {
    if (windowMs == SupervisionSettings.INFINITE_WINDOW) {
      return;
    }
    while (!stamps.isEmpty() && now - stamps.peekFirst() > windowMs) {
      stamps.pollFirst();
    }
  }

  /** Whether {@code k} more replacements at {@code now} stay within the budget (after forget). */
  boolean allows(int k) {
    return stamps.size() + k <= maxRestarts;
  }

  int size() {
    return stamps.size();
  }

  void record(int k, long now) {
    for (int i = 0; i < k; i++) {
      stamps.addLast(now);
    }
  }

  @Override
  public String toString() {
    return stamps.toString();
  }
}
