package dev.shepherd.runtime.access;

import java.util.function.Supplier;

/**
 * A cluster manager that can route a highly available pool's submits to its standbys the moment
 * its leader's member leaves (A3 in docs/rules.md), without waiting for the cluster to list a
 * consumer registered after the departure. A standby lists a <em>marker</em> consumer ({@link
 * #markerOf}), which nobody sends to, and keeps an <em>unlisted</em> consumer of the submit
 * address itself ({@link #unlisted}); where no live member lists a consumer of an address, the
 * submitting member's event bus sends to the nodes that list its marker, and their unlisted
 * consumers take the submits. Senders on another cluster manager see only the marker and never
 * send to a standby, as before.
 */
public interface StandbyRoutes {
  /** What a marker address ends with. */
  String MARKER = "#standby";

  /** The address whose consumers mark the nodes standing by for {@code address}. */
  static String markerOf(String address) {
    return address + MARKER;
  }

  /** Whether {@code address} is a marker. */
  static boolean isMarker(String address) {
    return address.endsWith(MARKER);
  }

  /**
   * Runs {@code registration}, which registers consumers on this Vert.x instance's event bus on
   * the calling thread: those are not listed in the cluster (only senders that route to standbys
   * reach them), and their unregistration touches the cluster neither.
   */
  <T> T unlisted(Supplier<T> registration);
}
