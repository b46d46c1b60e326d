package dev.shepherd.cluster.ha;

/**
 * What a standby asks of its cluster manager for the day it takes a pool over (A3, A4 in
 * docs/rules.md): to keep the route to a submitter's {@code replyTo} address ready, so that the
 * new leader's first answers need no lookup through the cluster's partitioned maps, which wait,
 * right after a kill, for the dead member's partitions to get new owners. A cluster manager that
 * does not implement it leaves the standby's answers to look their routes up when they go.
 */
public interface ReplyRoutes {
  /** Keeps the consumers of {@code address}, and how to reach their nodes, known here. */
  void keepReady(String address);
}
