package dev.shepherd.core;

/**
 * How a pool treats worker hosts on other nodes (section 8 in docs/rules.md). Any pool accepts hosts (H2); these
 * settings say whether it may start with no slot of its own, how long a host may be silent before
 * it is lost, and how long a lost host's slots wait for it before they retire.
 *
 * @param hostsOnly the pool may have no configured slot and run only hosts' slots (H2); until one
 *     registers, submits are queued in the bounded backlog
 * @param graceMs how long a slot stays LOST before it retires with HOST_LOST (H6)
 * @param leaseMs how long an UP host may go unheard (no registration, heartbeat or report) before
 *     it is LOST (H5; the runtime's {@code heartbeatTimeoutMs})
 */
public record HostSettings(boolean hostsOnly, long graceMs, long leaseMs) {

  /** The default of {@code leaseMs}: five missed heartbeats of a host's default. */
  public static final long DEFAULT_LEASE_MS = 5_000;

  /** Configured slots required; lost slots retire after 30 s; a lease of 5 s. */
  public static final HostSettings DEFAULT = new HostSettings(false, 30_000);

  public HostSettings {
    if (graceMs < 0) {
      throw new ConfigException("hostGraceMs", graceMs, "must not be negative");
    }
    if (leaseMs <= 0) {
      throw new ConfigException("heartbeatTimeoutMs", leaseMs, "must be positive");
    }
  }

  /** Settings with the default lease. */
  public HostSettings(boolean hostsOnly, long graceMs) {
    this(hostsOnly, graceMs, DEFAULT_LEASE_MS);
  }
}
