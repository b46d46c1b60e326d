/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): the
 * coordinator of one pool on one Vert.x context: it feeds events to the core and carries out its
 * effects ({@code Coordinator}, {@code EffectInterpreter}), with its inbox and outbox (work handed
 * in and out in one batch per turn), timers, waiters, lookups and dead letters, the local slots
 * and their {@code SlotHandle} port, the leader of a highly available term and the terms a node
 * leads ({@code TermRunner}), and the hooks beside
 * it ({@code PoolObserver}, {@code PoolExtension}).
 *
 * <p>Uses the core, {@code core.ha}, the API, {@code time}, {@code payload}, {@code config},
 * {@code slot}, {@code wire} and {@code ha}; it knows nothing of how it is reached ({@code
 * access}) or watched ({@code observe}).
 */
package dev.shepherd.runtime.coordinator;
