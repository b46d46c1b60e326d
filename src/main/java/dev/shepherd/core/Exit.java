package dev.shepherd.core;

/** How a worker incarnation ended, as reported by its slot. */
public enum Exit {
  /** The handler threw, or an uncaught exception reached the incarnation's context. */
  CRASH,
  /** An assignment ran past its job timeout; the slot stopped the hung incarnation. */
  TIMEOUT,
  /** The worker undeployed itself. */
  NORMAL,
  /** A sibling's failure made the supervisor replace this slot (ONE_FOR_ALL, REST_FOR_ONE). */
  SIBLING_RESTART,
  /** The node hosting a remote slot left the cluster or stopped sending heartbeats. */
  NODE_LOST;

  /** Whether a {@link RestartPolicy#TRANSIENT} slot is replaced after this exit. */
  public boolean abnormal() {
    return this != NORMAL;
  }
}
