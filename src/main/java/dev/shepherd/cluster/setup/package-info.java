/**
 * Internal, with no compatibility promise: setting up a cluster: the cluster manager and its
 * settings ({@code ClusterSetup}, {@code ClusterSettings}), the membership view the directories
 * read ({@code Membership}) and the guard that keeps a node's consumers listed in the cluster
 * ({@code RegistrationGuard}).
 *
 * <p>Uses the core and {@code cluster.ha} (the leadership it installs).
 */
package dev.shepherd.cluster.setup;
