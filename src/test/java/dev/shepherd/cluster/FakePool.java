package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.join;

import dev.shepherd.cluster.hosts.HostCodec;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test's stand-in for a pool's coordinator on the worker-host addresses: it records every
 * registration, heartbeat, report batch and deregistration, answers registrations as told, and
 * sends commands to a host.
 */
public final class FakePool {
  final Vertx vertx;
  final Addresses addresses;
  public final List<HostMessages.Register> registrations = new CopyOnWriteArrayList<>();
  public final List<HostMessages.Heartbeat> heartbeats = new CopyOnWriteArrayList<>();
  public final List<HostReport.Batch> batches = new CopyOnWriteArrayList<>();
  public final List<HostMessages.Deregister> deregistrations = new CopyOnWriteArrayList<>();
  /** Registrations still to be failed with 503 before one is answered. */
  public final AtomicInteger failRegistrations = new AtomicInteger();
  public volatile boolean refuseAsDuplicate;
  public volatile long term;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();

  public FakePool(Vertx vertx, String prefix) {
    this.vertx = vertx;
    this.addresses = new Addresses(prefix);
    consume(addresses.register(), this::register);
    consume(addresses.heartbeat(),
        m -> heartbeats.add(HostCodec.decodeHeartbeat(m.body())));
    consume(addresses.completed(), m -> batches.add(HostCodec.decodeReports(m.body())));
    consume(addresses.deregister(), m -> {
      HostMessages.Deregister deregister = HostCodec.decodeDeregister(m.body());
      deregistrations.add(deregister);
      m.reply(HostCodec.encode(deregister));
    });
    List<Future<Void>> ready = new ArrayList<>();
    consumers.forEach(c -> ready.add(c.completion()));
    join(Future.all(ready));
  }

  private void consume(String address, java.util.function.Consumer<Message<Object>> handler) {
    consumers.add(vertx.eventBus().consumer(address, handler::accept));
  }

  private void register(Message<Object> message) {
    HostMessages.Register register = HostCodec.decodeRegister(message.body());
    registrations.add(register);
    if (refuseAsDuplicate) {
      message.fail(409, "DUPLICATE_HOST: host " + register.host() + " is registered from"
          + " another node");
    } else if (failRegistrations.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      message.fail(503, "not ready");
    } else {
      message.reply(HostCodec.encode(new HostMessages.Registered(register.host(), term, 5000)));
    }
  }

  /** Sends one command message of {@code term} to {@code host}. */
  public void send(String host, long term, HostCommand... items) {
    vertx.eventBus().send(addresses.prefix() + ".host." + host,
        HostCodec.encode(new HostCommand.Batch(term, List.of(items))));
  }

  /** Every report so far, in the order the batches arrived. */
  public List<HostReport> reports() {
    List<HostReport> all = new ArrayList<>();
    batches.forEach(b -> all.addAll(b.items()));
    return all;
  }

  public <T extends HostReport> List<T> reports(Class<T> type) {
    return reports().stream().filter(type::isInstance).map(type::cast).toList();
  }

  public void close() {
    consumers.forEach(MessageConsumer::unregister);
  }
}
