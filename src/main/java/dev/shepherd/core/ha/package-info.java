/**
 * Internal, with no compatibility promise: the pure part of high availability (A2, A3 in
 * docs/rules.md): the gate that lets a durable pool's effects out only once the records before them
 * are stored ({@code DurableGate}), and the log a successor recovers from ({@code DurableLog}). No
 * Vert.x, no clock: {@code CorePurityTest} holds them to the core's rules.
 *
 * <p>Uses the core only.
 */
package dev.shepherd.core.ha;
