package dev.shepherd.runtime.wire;

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

  /**
   * Operators pause dispatch here (F5 in docs/rules.md): {@code {"group"?}}, the pool when it
   * names no group.
   */
  public String pause() {
    return prefix + ".pause";
  }

  /** Operators resume dispatch here (F5 in docs/rules.md): {@code {"group"?}}. */
  public String resume() {
    return prefix + ".resume";
  }

  /**
   * Operators set a group's limits here (F1, F2, F4, F5 in docs/rules.md): {@code {"group",
   * "concurrency"?, "queueCapacity"?, "weight"?, "rateLimit"?, "paused"?}}.
   */
  public String groupSet() {
    return prefix + ".group.set";
  }

  /**
   * Operators drop a group's run-time settings here (F1 in docs/rules.md): {@code {"group"}}.
   */
  public String groupReset() {
    return prefix + ".group.reset";
  }

  /** One group's limits and load (F1 in docs/rules.md): {@code {"group"}}. */
  public String group() {
    return prefix + ".group.get";
  }

  /**
   * Operators resize the pool's own slots here (F6 in docs/rules.md): {@code {"instances"?,
   * "maxConcurrency"?}}; the reply is the size now.
   */
  public String size() {
    return prefix + ".size";
  }

  /**
   * Where a job is (J6 in docs/rules.md): {@code {"job", "wait"?, "timeoutMs"?}}; the job's view,
   * or with {@code wait} its terminal outcome.
   */
  public String job() {
    return prefix + ".job";
  }

  /**
   * A page of the dead-letter set, newest first (J5 in docs/rules.md): {@code {"offset"?,
   * "limit"?}}.
   */
  public String deadLetters() {
    return prefix + ".dead.list";
  }

  /** One dead-lettered job (J5 in docs/rules.md): {@code {"job"}}. */
  public String deadLetter() {
    return prefix + ".dead.get";
  }

  /**
   * Submits a dead-lettered job again (J5 in docs/rules.md): {@code {"job"}}; the reply is the
   * admission.
   */
  public String replayDead() {
    return prefix + ".dead.replay";
  }

  /** Discards a dead-lettered job (J5 in docs/rules.md): {@code {"job"}}. */
  public String discardDead() {
    return prefix + ".dead.discard";
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
