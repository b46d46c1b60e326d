/**
 * The pure heart of Shepherd: one pool's state machine, deterministic and single-threaded, with
 * no Vert.x, no clock, no threads and no I/O.
 *
 * <h2>Shape</h2>
 *
 * <p>{@link dev.shepherd.core.Pool#apply} takes a {@link dev.shepherd.core.PoolEvent} (a submit, a
 * completion, a fact about a slot, the passage of time) and returns the {@link
 * dev.shepherd.core.Effect}s to run, in order (answers to submitters, assignments, deployments,
 * stops, wake-ups, notices), or a typed {@link dev.shepherd.core.PoolError} that left the state
 * exactly as it was. Time arrives inside events; randomness (backoff jitter) comes from a seed in
 * the settings. The runtime decodes input into events, calls {@code apply}, and interprets the
 * effects; nothing else decides anything.
 *
 * <h2>Glossary</h2>
 *
 * <dl>
 *   <dt>slot</dt>
 *   <dd>A stable worker identity ({@code w-0}, …, or a registered remote id). Affinity binds keys
 *       to slots, never to incarnations.</dd>
 *   <dt>incarnation</dt>
 *   <dd>One deployment behind a slot, numbered from 1. Facts carry it; a fact about an older
 *       incarnation is refused ({@code STALE_INCARNATION}: from the past).</dd>
 *   <dt>job</dt>
 *   <dd>What a submitter sends, with its caller-chosen (or generated) id. Accepted jobs are
 *       answered exactly once with a terminal outcome.</dd>
 *   <dt>assignment</dt>
 *   <dd>One dispatch of one job to one slot, fenced by a pool-unique, monotonic token (the
 *       coordinator's term in the high bits). A completion must carry the live token.</dd>
 *   <dt>backlog</dt>
 *   <dd>The bounded FIFO of accepted jobs waiting for capacity. Interrupted jobs under RETRY go
 *       back to its front, in their original order.</dd>
 *   <dt>binding</dt>
 *   <dd>An affinity key's slot, chosen by the selector on first admission and moved only by a
 *       rebalance.</dd>
 *   <dt>capacity</dt>
 *   <dd>How many assignments a slot runs at once ({@code maxConcurrency}); unknown counts as full.
 *   </dd>
 *   <dt>host</dt>
 *   <dd>Another node that runs incarnations of some of the pool's slots ({@code <host>/w-N}) while
 *       the pool's supervisor decides everything about them. A host whose node leaves or whose
 *       heartbeats stop is LOST: its slots are neither dispatchable nor retired, until it returns
 * or its grace runs out (then they retire HOST_LOST).</dd>
 *   <dt>term</dt>
 *   <dd>The generation of a pool's coordinator under HA: each new leader's is higher, and its
 *       assignment tokens carry it, so a completion of an older term is stale (its token matches no
 *       live assignment) and a command of an older term is ignored.</dd>
 *   <dt>durable image</dt>
 *   <dd>What must survive a durable pool's coordinator: its unanswered jobs (queued with their
 *       backlog position, or running), bindings and hosts. The pool emits each change as a record
 *       ({@link dev.shepherd.core.Effect.Persist}); a {@link dev.shepherd.core.Ledger} replays
 *       records into the image; a pool of a newer term recovers from it.</dd>
 *   <dt>group</dt>
 *   <dd>A tenant, customer or downstream a submit names (F1 in docs/rules.md): at most its
 *       {@code concurrency} jobs run at once and its {@code queueCapacity} wait; groups share the
 *       slots by weight (F2), order their jobs by priority (F3), may have a token bucket (F4) and
 *       may be paused (F5). Jobs without a group form the pool's default group, for fairness only.
 *       A group with no override, no pause and no jobs is forgotten.</dd>
 *   <dt>fair ring</dt>
 *   <dd>The queues of groups that may start jobs in one place (any slot, or one slot for keyed
 *       jobs), served by weighted virtual time; a blocked group's queues are parked out of it.</dd>
 *   <dt>budget</dt>
 *   <dd>At most {@code maxRestarts} replacements within a sliding window; a decision that would
 *       exceed it is refused and the failure reaction applies.</dd>
 * </dl>
 *
 * <h2>High availability</h2>
 *
 * <p>A durable pool (section 8.5 in docs/rules.md) emits, in the transition that makes each change, a {@link
 * dev.shepherd.core.DurableRecord}: a job accepted (with its backlog position and every submit
 * field), assigned (attempt, slot), requeued (new position, why), answered (with the outcome); a
 * binding made, moved or forgotten; a host known. The runtime writes them to a replicated store
 * before it lets the effects that follow them out. A new coordinator of a higher term applies
 * {@link dev.shepherd.core.PoolEvent.Recover} with the store's image: queued jobs keep their order,
 * running ones are interrupted {@code NODE_LOST} and settled by the interruption policy, hosts'
 * slots wait LOST for their hosts, bindings hold, generated ids continue.
 *
 * <h2>Speed</h2>
 *
 * <p>Admission, dispatch and completion are O(1) amortised per job, O(log groups) with groups:
 * the backlog is one queue per group and place (untargeted, or one slot) with a lane per priority,
 * ordered by a sequence number, in fair rings of the groups that may start (see {@link
 * dev.shepherd.core.Backlog}), and two bit sets index the slots with free capacity (see {@link
 * dev.shepherd.core.PoolData}). Invariants are named once in
 * {@link dev.shepherd.core.PoolInvariants}.
 */
package dev.shepherd.core;
