package dev.shepherd.core;

/** The pool's lifecycle: running, draining after a stop request, or stopped. */
public enum PoolState {
  RUNNING,
  DRAINING,
  STOPPED
}
