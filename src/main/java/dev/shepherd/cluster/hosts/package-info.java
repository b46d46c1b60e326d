/**
 * Internal, with no compatibility promise: worker hosts (section 8.2 in docs/rules.md): the agent a
 * host node runs ({@code HostAgent}) with its slots, the host protocol's codec, commands, reports
 * and batching, the host's configuration and its view of membership.
 *
 * <p>Uses the core and the runtime's API, {@code time}, {@code payload}, {@code config}, {@code
 * slot}, {@code wire} and {@code coordinator} (a host slot is a {@code SlotHandle}).
 */
package dev.shepherd.cluster.hosts;
