/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): a highly
 * available pool's side of the cluster (A1-A3 in docs/rules.md): the {@code Leadership} port the
 * cluster package implements, the JSON of what the replicated store holds, and the journal's times
 * as they cross JVMs. The pure gate and log are {@code dev.shepherd.core.ha}'s; the leader of a
 * term is the coordinator package's {@code DurableLeader}.
 *
 * <p>Uses the core, {@code core.ha}, the API, {@code payload}, {@code time} and {@code wire}.
 */
package dev.shepherd.runtime.ha;
