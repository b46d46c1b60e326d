package dev.shepherd.runtime;

import dev.shepherd.core.PoolError;

/**
 * A request the pool refused with a state-machine error (409 on the wire), e.g. a rebalance to a
 * retired worker. {@link #name()} is the protocol's error name.
 */
public final class PoolErrorException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String name;

  public PoolErrorException(String name, String details) {
    super(name + ": " + details, null, false, false);
    this.name = name;
  }

  public PoolErrorException(PoolError error) {
    this(error.name(), error.message());
  }

  /** The error's name, e.g. {@code UNKNOWN_WORKER}. */
  public String name() {
    return name;
  }
}
