package dev.shepherd.cluster.hosts;

import dev.shepherd.runtime.coordinator.TurnBuffer;
import io.vertx.core.Context;
import io.vertx.core.eventbus.EventBus;

/**
 * What a worker host has to tell its pool (completions and facts), collected over one turn of
 * the host's context ({@link TurnBuffer}) and sent as one {@code <prefix>.completed} message:
 * under load a message carries many completions, not one. Confined to the host's context.
 */
final class HostReports {
  private final TurnBuffer<HostReport> turn;

  HostReports(Context context, EventBus bus, String address, String host) {
    this.turn = TurnBuffer.on(context,
        items -> bus.send(address, HostBatchWriter.write(new HostReport.Batch(host, items))));
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
