package dev.shepherd.core;

/**
 * A pool's high availability as its status shows it (A1 in docs/rules.md): whether it is enabled,
 * whether the cluster has the members a majority needs ({@code available}), the node id of the
 * active coordinator and its term. The runtime supplies it; the core only carries it in the
 * snapshot.
 */
public record HaStatus(boolean enabled, boolean available, String active, long term) {}
