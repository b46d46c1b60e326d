/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): what watches
 * a pool from its coordinator's context: the supervision log ({@code PoolLog}) in the words of
 * {@code IncidentWords}, the recent past a live view opens with ({@code PoolHistory}), and the
 * publisher of its events ({@code EventPublisher}).
 *
 * <p>Uses the core, the API, {@code time}, {@code payload}, {@code wire} and {@code coordinator}
 * (the observer port).
 */
package dev.shepherd.runtime.observe;
