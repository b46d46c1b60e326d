package dev.shepherd.cluster.directory;

import dev.shepherd.cluster.hosts.HostBatchWriter;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMac;
import dev.shepherd.cluster.hosts.HostWire;
import io.vertx.core.buffer.Buffer;
import dev.shepherd.core.HostState;
import dev.shepherd.runtime.coordinator.HostedPool;
import dev.shepherd.runtime.trace.JobTraces;
import dev.shepherd.runtime.coordinator.TurnBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A worker host as its pool's coordinator knows it: the node it runs on and the address it takes
 * commands at (both from its latest registration), its state as the pool sees it, when it was
 * last heard from (its lease), its slots' handles, and the commands of the coordinator's current
 * turn ({@link TurnBuffer}), which leave together as one message ({@code {"term", "items"}}) once
 * the turn is over, or in messages of {@link HostWire#MAX_BATCH_ITEMS}, in order, when the turn
 * holds more.
 * Confined to the coordinator's context.
 */
final class RemoteHost {
  final String id;
  String node;
  String address;
  /** UP, LOST or GONE as the pool published it; null until the pool first took the host. */
  HostState state;
  final Map<String, RemoteSlot> slots = new LinkedHashMap<>();

  private final TurnBuffer<HostCommand> turn;
  /** The pool's job traces (T1 in docs/rules.md), null while tracing is off. */
  final JobTraces traces;

  RemoteHost(String id, String node, String address, HostedPool pool, long term, HostMac mac) {
    this.id = id;
    this.node = node;
    this.address = address;
    this.traces = pool.traces();
    // Sent to the address the host has when the turn ends: a re-registration may have moved it.
    this.turn = pool.turnBuffer(HostWire.MAX_BATCH_ITEMS, items -> {
      Buffer batch = HostBatchWriter.write(new HostCommand.Batch(term, items));
      if (mac.on()) {
        pool.sender().send(this.address, batch, mac.sign(HostMac.COMMANDS, term, batch));
      } else {
        pool.sender().send(this.address, batch);
      }
    });
  }

  /**
   * Queues {@code command}; it leaves with the rest of this turn's commands for the host. The
   * flush runs after the tasks already queued on the coordinator's context, so a burst of
   * submits or a batch of completions becomes one message per host.
   */
  void send(HostCommand command) {
    turn.add(command);
  }

  /** Sends what is queued, in order, as one message to the host's current address. */
  void flush() {
    turn.flush();
  }

  @Override
  public String toString() {
    return id + "[" + state + " node=" + node + " address=" + address + "]";
  }
}
