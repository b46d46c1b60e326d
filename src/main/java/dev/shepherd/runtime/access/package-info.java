/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): how a pool is
 * reached: the {@code PoolHandle} port with its in-JVM and event-bus implementations, the bus
 * endpoints a coordinator serves, the directories that find pools (this Vert.x instance's, the
 * highly available ones stood by for), a submitter's own reply address, the wait for a leader
 * during a failover, and the announcements that let every node of a cluster serve a pool.
 *
 * <p>Uses the core, the API, {@code time}, {@code payload}, {@code wire}, {@code coordinator}
 * and {@code observe} (a pool's history, served on the bus).
 */
package dev.shepherd.runtime.access;
