package dev.shepherd.core;

/** A worker host's state as the pool sees it (section 8.3 in docs/rules.md). */
public enum HostState {
  /** Registered, its node a member and its heartbeats on time. */
  UP,
  /** Its node left the cluster, or its heartbeats stopped (H5 in docs/rules.md). */
  LOST,
  /** It deregistered on purpose; its slots departed. */
  GONE
}
