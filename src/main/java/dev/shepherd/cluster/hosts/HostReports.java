package dev.shepherd.cluster.hosts;

import dev.shepherd.runtime.coordinator.TurnBuffer;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What a worker host has to tell its pool (completions and facts), collected over one turn of
 * the host's context ({@link TurnBuffer}) and sent as one {@code <prefix>.completed} message (or
 * several of {@link HostWire#MAX_BATCH_ITEMS}): under load a message carries many completions,
 * not one; with a cluster key it carries the MAC of {@link HostMac} over its bytes and the
 * host's term. Confined to the host's context.
 */
final class HostReports {
  private final TurnBuffer<HostReport> turn;

  HostReports(Context context, EventBus bus, String address, String host, HostMac mac,
      LongSupplier term) {
    this.turn = new TurnBuffer<>(task -> context.runOnContext(v -> task.run()),
        HostWire.MAX_BATCH_ITEMS, items -> send(bus, address, host, mac, term, items));
  }

  private static void send(EventBus bus, String address, String host, HostMac mac,
      LongSupplier term, List<HostReport> items) {
    Buffer batch = HostBatchWriter.write(new HostReport.Batch(host, items));
    if (mac.on()) {
      bus.send(address, batch, mac.sign(HostMac.REPORTS, term.getAsLong(), batch));
    } else {
      bus.send(address, batch);
    }
  }

  /** Queues {@code report}; it leaves with the rest of this turn's reports. */
  void add(HostReport report) {
    turn.add(report);
  }

  /** Sends what is queued, in the order it happened, as one message. */
  void flush() {
    turn.flush();
  }

  /** Drops what is queued (the host left its pool, which would ignore it). */
  void drop() {
    turn.drop();
  }
}
