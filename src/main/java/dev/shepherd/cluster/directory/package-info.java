/**
 * Internal, with no compatibility promise: where a cluster's pools and hosts are: the pool
 * directory every node serves from ({@code ClusterPoolDirectory}, with the {@code
 * AnnouncedPools}), and a coordinator's side of its worker hosts ({@code PoolHosts}, {@code
 * HostDirectory}, {@code RemoteHost}, {@code RemoteSlot}).
 *
 * <p>Uses the core, the runtime's API, {@code time}, {@code payload}, {@code slot}, {@code wire},
 * {@code coordinator} and {@code access}, and {@code cluster.hosts} and {@code cluster.setup}.
 */
package dev.shepherd.cluster.directory;
