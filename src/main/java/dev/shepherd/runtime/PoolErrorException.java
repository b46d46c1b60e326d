package dev.shepherd.runtime;

import dev.shepherd.core.PoolError;
import dev.shepherd.runtime.wire.Refusals;

/**
 * A request the pool refused with a state-machine error (409 on the wire, or the {@link #code()}
 * its name has), e.g. a rebalance to a retired worker. {@link #name()} is the protocol's error
 * name.
 */
public final class PoolErrorException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /**
   * A job the pool neither holds nor remembers (J6 in docs/rules.md), or not in its dead-letter set
   * (J5).
   */
  public static final String UNKNOWN_JOB = "UNKNOWN_JOB";
  /**
   * A wait for a job's outcome refused: the pool already holds as many as it allows (J6 in
   * docs/rules.md).
   */
  public static final String TOO_MANY_WAITERS = "TOO_MANY_WAITERS";

  /**
   * A pool that drains or has stopped takes no worker host (H1 in docs/rules.md): 503, the host
   * tries again.
   */
  public static final String SHUTTING_DOWN = "SHUTTING_DOWN";

  private final String name;
  private final int code;

  public PoolErrorException(String name, String details) {
    this(name, details, codeOf(name));
  }

  /** A refusal read back from the bus ({@link Refusals#parse}), keeping the code it came with. */
  public PoolErrorException(String name, String details, int code) {
    super(Refusals.text(name, details), null, false, false);
    this.name = name;
    this.code = code;
  }

  public PoolErrorException(PoolError error) {
    this(error.name(), error.message());
  }

  /** The error's name, e.g. {@code UNKNOWN_WORKER}. */
  public String name() {
    return name;
  }

  /**
   * The refusal's code on the wire, the bus's {@code fail} code and the HTTP status alike: 404
   * for {@code UNKNOWN_JOB} (J5, J6 in docs/rules.md: no such job, as for a resource), 429 for
   * {@code TOO_MANY_WAITERS} (come back later), 503 for {@code SHUTTING_DOWN} (a host registering
   * with a pool that no longer runs: it tries again), 409 for every other state-machine refusal.
   */
  public int code() {
    return code;
  }

  private static int codeOf(String name) {
    return switch (name) {
      case UNKNOWN_JOB -> 404;
      case TOO_MANY_WAITERS -> 429;
      case SHUTTING_DOWN -> 503;
      default -> 409;
    };
  }
}
