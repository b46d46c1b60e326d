/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): one
 * incarnation of a slot, wherever the slot runs: the verticle that hosts a user's {@link
 * dev.shepherd.runtime.JobHandler} ({@code IncarnationVerticle}), the {@code Incarnation} its slot
 * drives and the {@code Deployments} port that deploys it ({@code VertxDeployments} in
 * production), the runner of one slot's incarnations ({@code IncarnationRunner}), the owner it
 * reports to, the one reading of a failure as a {@code JobError}, the check of a result no answer
 * could carry, and what an incarnation may do to a {@link dev.shepherd.runtime.Job} ({@code
 * JobControl}). Local slots (the coordinator package) and worker hosts (the cluster) both run it.
 *
 * <p>Uses the core, the API, {@code time} and {@code payload}.
 */
package dev.shepherd.runtime.slot;
