package dev.shepherd.cluster;

import io.vertx.core.Context;
import io.vertx.core.eventbus.EventBus;
import java.util.ArrayList;

/**
 * What a worker host has to tell its pool (completions and facts), collected over one turn of
 * the host's context and sent as one {@code <prefix>.completed} message: under load a message
 * carries many completions, not one. Confined to the host's context.
 */
final class HostReports {
  private final Context context;
  private final EventBus bus;
  private final String address;
  private final String host;
  private ArrayList<HostReport> pending = new ArrayList<>();
  private boolean scheduled;

  HostReports(Context context, EventBus bus, String address, String host) {
    this.context = context;
    this.bus = bus;
    this.address = address;
    this.host = host;
  }

  /** Queues {@code report}; it leaves with the rest of this turn's reports. */
  void add(HostReport report) {
    pending.add(report);
    if (!scheduled) {
      scheduled = true;
      context.runOnContext(v -> flush());
    }
  }

  /** Sends what is queued, in the order it happened, as one message. */
  void flush() {
    scheduled = false;
    if (pending.isEmpty()) {
      return;
    }
    ArrayList<HostReport> items = pending;
    pending = new ArrayList<>(Math.max(8, items.size()));
    bus.send(address, HostBatchWriter.write(new HostReport.Batch(host, items)));
  }

  /** Drops what is queued (the host left its pool, which would ignore it). */
  void drop() {
    pending.clear();
  }
}
