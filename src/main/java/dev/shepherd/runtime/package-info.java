/**
 * Shepherd's library API, all a user imports: implement a {@link dev.shepherd.runtime.JobHandler}
 * (it gets each {@link dev.shepherd.runtime.Job} and its {@link
 * dev.shepherd.runtime.WorkerContext}), deploy a {@link dev.shepherd.runtime.PoolVerticle} per
 * pool (configured as a {@link dev.shepherd.runtime.PoolConfig} reads it), and submit through a
 * {@link dev.shepherd.runtime.PoolClient} ({@link dev.shepherd.runtime.JobRequest}, {@link
 * dev.shepherd.runtime.PoolClientOptions}); a job that does not complete fails its call with a
 * {@link dev.shepherd.runtime.JobException}. The core's values ({@code dev.shepherd.core}:
 * outcomes, job views, settings) complete it.
 *
 * <p>Everything in the subpackages ({@code coordinator}, {@code slot}, {@code wire}, {@code
 * payload}, {@code access}, {@code ha}, {@code observe}, {@code config}, {@code time}) is
 * internal, with no compatibility promise: public only because another package of Shepherd uses
 * it. docs/architecture.md maps them.
 *
 * <p>Threading: all pool state lives on the coordinator's context. Local slots hand assignments
 * straight to the incarnation's context and completions come back through the coordinator's
 * inbox, which runs what queued up in batches; an in-JVM {@code PoolClient} uses the same inbox.
 * Only requests from other verticles or nodes use the event bus. A {@code PoolClient} on a
 * clustered Vert.x submits over the bus with a reply address of its own, so an outcome sent by a
 * coordinator that took over after a failover still reaches it.
 */
package dev.shepherd.runtime;
