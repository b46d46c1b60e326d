/**
 * Internal, with no compatibility promise: setting up a cluster: the cluster manager and its
 * settings ({@code ClusterSetup}, {@code ClusterSettings}) and the membership view the directories
 * read ({@code Membership}).
 *
 * <p>Uses the core and {@code cluster.ha} (the leadership it installs).
 */
package dev.shepherd.cluster.setup;
