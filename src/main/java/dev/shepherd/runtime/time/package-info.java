/**
 * Internal, with no compatibility promise (users import {@link dev.shepherd.runtime}): the runtime's
 * time: its one clock ({@code RuntimeClock}: monotonic time for deadlines, wall time only for what
 * people read), the per-context {@code Scheduler}, and the translation of the core's monotonic
 * times into wall times for display ({@code WallTimes}).
 *
 * <p>Uses the core and the API's value types only.
 */
package dev.shepherd.runtime.time;
