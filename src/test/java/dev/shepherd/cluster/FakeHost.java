package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.join;

import dev.shepherd.cluster.hosts.HostCodec;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test's stand-in for a worker host, speaking the protocol by hand so a test decides every
 * message: it registers (under any node id), sends heartbeats and report batches when told, and
 * records the command messages the pool sends to its address.
 */
public final class FakeHost {
  final Vertx vertx;
  final Addresses addresses;
  public final String id;
  final String node;
  final String address;
  public final List<HostCommand.Batch> received = new CopyOnWriteArrayList<>();
  private final MessageConsumer<Object> consumer;

  public FakeHost(Vertx vertx, String prefix, String id, String node) {
    this.vertx = vertx;
    this.addresses = new Addresses(prefix);
    this.id = id;
    this.node = node;
    this.address = prefix + ".host." + id + "." + node;
    this.consumer = vertx.eventBus().consumer(address,
        m -> received.add(HostCodec.decodeCommands(m.body())));
    join(consumer.completion());
  }

  /** The registration body of {@code slots} slots of capacity {@code maxConcurrency}. */
  JsonObject registration(int slots, int maxConcurrency) {
    List<HostMessages.SlotOffer> offers = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      offers.add(new HostMessages.SlotOffer(id + "/w-" + i, maxConcurrency));
    }
    return HostCodec.encode(new HostMessages.Register(id, node, address, offers, 100));
  }

  /** Registers; returns the pool's answer. */
  public HostMessages.Registered register(int slots, int maxConcurrency) {
    return HostCodec.decodeRegistered(
        PoolFixture.request(vertx, addresses.register(), registration(slots, maxConcurrency)));
  }

  /** Registers where the pool must refuse; returns the failure. */
  public ReplyException refusedRegistration(int slots, int maxConcurrency) {
    return PoolFixture.refused(vertx, addresses.register(), registration(slots, maxConcurrency));
  }

  public void heartbeat() {
    vertx.eventBus().send(addresses.heartbeat(),
        HostCodec.encode(new HostMessages.Heartbeat(id, node, address)));
  }

  /** Sends reports as a request, to learn how many the pool found stale. */
  public JsonObject report(HostReport... items) {
    return join(vertx.eventBus().request(addresses.completed(),
        HostCodec.encode(new HostReport.Batch(id, List.of(items))),
        new DeliveryOptions().setSendTimeout(PoolFixture.STEP.toMillis())))
        .body() instanceof JsonObject json ? json : null;
  }

  /** Every command received so far, in order. */
  public List<HostCommand> commands() {
    List<HostCommand> all = new ArrayList<>();
    received.forEach(b -> all.addAll(b.items()));
    return all;
  }

  public <T extends HostCommand> List<T> commands(Class<T> type) {
    return commands().stream().filter(type::isInstance).map(type::cast).toList();
  }

  void close() {
    join(consumer.unregister());
  }
}
