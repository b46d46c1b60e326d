package dev.shepherd.runtime;

import dev.shepherd.core.DeadLetter;
import java.util.List;

/**
 * One page of a pool's dead-letter set (J5 in docs/rules.md), newest first: the set's {@code size}
 * now, how many entries it has {@code evicted} since the pool started (the oldest go when it is
 * full), and up to {@code limit} {@code entries} after skipping {@code offset}.
 */
public record DeadLetterPage(String pool, int size, long evicted, int offset, int limit,
    List<DeadLetter> entries) {
  public DeadLetterPage {
    entries = List.copyOf(entries);
  }
}
