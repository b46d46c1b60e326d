/**
 * Shepherd on Vert.x: the coordinator verticle ({@link dev.shepherd.runtime.PoolVerticle}) that
 * feeds the pure core and interprets its effects, supervised local slots whose incarnations host
 * your {@link dev.shepherd.runtime.JobHandler}, the event-bus protocol v1, and {@link
 * dev.shepherd.runtime.PoolClient}.
 *
 * <p>Threading: all pool state lives on the coordinator's context. Local slots hand assignments
 * straight to the incarnation's context ({@code runOnContext}) and completions come back through
 * the coordinator's {@link dev.shepherd.runtime.coordinator.Inbox}, which runs what queued up in batches; an
 * in-JVM {@code PoolClient} uses the same inbox. Only requests from other verticles or nodes use
 * the event bus.
 *
 * <p>From outside the runtime (the web layer, {@code PoolClient}) a pool is reached only through a
 * {@link dev.shepherd.runtime.access.PoolHandle}: in the JVM that runs it, straight to the coordinator's
 * inbox; elsewhere, protocol v1 over the bus. A {@link dev.shepherd.runtime.access.PoolDirectory} finds
 * them: this Vert.x instance's pools, or, in a cluster, every pool the coordinators announce. A
 * {@code PoolClient} on a clustered Vert.x submits over the bus with a reply address of its own
 * ({@link dev.shepherd.runtime.access.ReplyAddress}), so an outcome sent by a coordinator that took over
 * after a failover still reaches it.
 */
package dev.shepherd.runtime;
