package dev.shepherd.core;

/**
 * How a pool treats worker hosts on other nodes (section 8 in docs/rules.md). Any pool accepts
 * hosts (H2); these settings only say whether it may start with no slot of its own, and how long a
 * lost host's slots wait for it before they retire.
 *
 * @param hostsOnly the pool may have no configured slot and run only hosts' slots (H2); until one
 *     registers, submits are queued in the bounded backlog
 * @param graceMs how long a slot stays LOST before it retires with HOST_LOST (H6)
 */
public record HostSettings(boolean hostsOnly, long graceMs) {

  /** Configured slots required; lost slots retire after 30 s. */
  public static final HostSettings DEFAULT = new HostSettings(false, 30_000);

  public HostSettings {
    if (graceMs < 0) {
      throw new ConfigException("hostGraceMs", graceMs, "must not be negative");
    }
  }
}
