package dev.shepherd.cluster.hosts;

import java.util.List;
import java.util.Objects;

/**
 * The bodies of a worker host's membership in a pool: registering (and its answer), the
 * heartbeat that keeps its lease, and leaving. Batches of commands and reports are {@link
 * HostCommand.Batch} and {@link HostReport.Batch}.
 */
public final class HostMessages {
  private HostMessages() {}

  /**
   * A host offers its slots to the pool ({@code <prefix>.register}). {@code node} is its cluster
   * node id, {@code address} where it takes commands.
   */
  public record Register(String host, String node, String address, List<SlotOffer> slots,
      long heartbeatMs) {
    public Register {
      Objects.requireNonNull(host, "host");
      slots = List.copyOf(slots);
    }
  }

  /**
   * One slot of a host; {@code maxConcurrency} null means unknown (never selected, C1 in
   * docs/rules.md).
   */
  public record SlotOffer(String id, Integer maxConcurrency) {
    public SlotOffer {
      Objects.requireNonNull(id, "id");
    }
  }

  /**
   * The pool's answer to a registration: its term (commands of a lower term are ignored) and how
   * long it waits for a heartbeat before it declares the host lost.
   */
  public record Registered(String host, long term, long heartbeatTimeoutMs) {
    public Registered {
      Objects.requireNonNull(host, "host");
    }
  }

  /**
   * The host is alive ({@code <prefix>.heartbeat}, sent every {@code heartbeatMs}); {@code round}
   * numbers its current registration (0 when not said), which a {@code reregister} answer names.
   */
  public record Heartbeat(String host, String node, String address, int round) {
    public Heartbeat {
      Objects.requireNonNull(host, "host");
    }

    /** A heartbeat that names no registration round. */
    public Heartbeat(String host, String node, String address) {
      this(host, node, address, 0);
    }
  }

  /** The host leaves on purpose ({@code <prefix>.deregister}); the reply has the same body. */
  public record Deregister(String host) {
    public Deregister {
      Objects.requireNonNull(host, "host");
    }
  }
}
