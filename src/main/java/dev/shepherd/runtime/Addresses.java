package dev.shepherd.runtime;

/** Every event-bus address of one pool, built from its prefix ({@code shepherd.<pool>}). */
public record Addresses(String prefix) {

  public static Addresses forPool(String pool) {
    return new Addresses("shepherd." + pool);
  }

  public String submit() {
    return prefix + ".submit";
  }

  public String completed() {
    return prefix + ".completed";
  }

  public String rebalance() {
    return prefix + ".rebalance";
  }

  public String cancel() {
    return prefix + ".cancel";
  }

  public String status() {
    return prefix + ".status";
  }

  /** Operators put a retired slot back in service here: {@code {"worker"}}. */
  public String revive() {
    return prefix + ".revive";
  }

  /** The pool's recent past (events, per-second outcomes, last exits), for the live view. */
  public String history() {
    return prefix + ".history";
  }

  public String events() {
    return prefix + ".events";
  }

  public String register() {
    return prefix + ".register";
  }

  public String capacity() {
    return prefix + ".capacity";
  }

  public String heartbeat() {
    return prefix + ".heartbeat";
  }

  public String deregister() {
    return prefix + ".deregister";
  }

  /** The stable address of one slot (remote slots receive assignments there). */
  public String slot(String worker) {
    return prefix + ".slot." + worker;
  }
}
