package dev.shepherd.web;

import dev.shepherd.runtime.access.PoolDirectory;
import java.util.Set;

/**
 * Which addresses the SockJS bridge lets through: {@code <prefix>.<suffix>} where {@code prefix}
 * is the address prefix of a pool the {@link PoolDirectory} knows at that moment (so pools that
 * appear after the server started, here or elsewhere in the cluster, are reachable, and those
 * that left are not) and {@code suffix} is one the configuration permits in that direction.
 */
final class BridgePermits {
  private final PoolDirectory pools;
  private final Set<String> inbound;
  private final Set<String> outbound;

  BridgePermits(PoolDirectory pools, HttpConfig.Bridge config) {
    this.pools = pools;
    this.inbound = Set.copyOf(config.inbound());
    this.outbound = Set.copyOf(config.outbound());
  }

  /** Whether a browser may send to {@code address}. */
  boolean inbound(String address) {
    return permitted(address, inbound);
  }

  /** Whether a browser may receive from {@code address}. */
  boolean outbound(String address) {
    return permitted(address, outbound);
  }

  private boolean permitted(String address, Set<String> suffixes) {
    int dot = address.lastIndexOf('.');
    return dot > 0 && suffixes.contains(address.substring(dot + 1))
        && pools.byPrefix(address.substring(0, dot)) != null;
  }
}
