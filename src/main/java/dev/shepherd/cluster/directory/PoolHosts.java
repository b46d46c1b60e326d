package dev.shepherd.cluster.directory;

import dev.shepherd.cluster.hosts.HostCodec;
import dev.shepherd.cluster.hosts.HostMac;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import dev.shepherd.cluster.hosts.HostWire;
import dev.shepherd.cluster.setup.Membership;
import dev.shepherd.core.PoolError;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.coordinator.HostedPool;
import dev.shepherd.runtime.coordinator.PoolExtension;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.Refusals;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker-host side of a pool's coordinator (H2-H7 in docs/rules.md), as {@code
 * docs/protocol.md} ("Worker hosts") describes it: it consumes {@code <prefix>.register}, {@code
 * .heartbeat}, {@code .deregister} and the batch form of {@code .completed}, decodes each body with
 * {@link HostCodec} ({@code fail(400, …)} naming the field, nothing changed), and hands it to the
 * pool's {@link HostDirectory}; it watches the cluster's membership for nodes that leave. Every
 * pool on a clustered Vert.x runs one (it is a {@link PoolExtension}), so a pool takes hosts with
 * no configuration of its own; on a Vert.x that is not clustered it does nothing (hosts need a
 * cluster), and the pool's addresses are exactly those of protocol v1.
 *
 * <p>With a cluster key on its Vert.x ({@code ClusterKeys}), every message of a host must carry
 * the MAC of {@link HostMac}: one that does not is refused before it is decoded, {@code 401
 * UNAUTHENTICATED_HOST} when it was a request (a registration, a deregistration), dropped
 * otherwise (a heartbeat, a batch of reports), with one WARN per host id; the pool's answers and
 * commands carry its own MAC (docs/security.md).
 */
public final class PoolHosts implements PoolExtension {
  private static final Logger LOG = LoggerFactory.getLogger(PoolHosts.class);
  /** At most one warning a period about messages that were sent, not requested, malformed. */
  static final long MALFORMED_WARNING_PERIOD_MS = 10_000;

  private HostedPool coordinator;
  private HostDirectory directory;
  private Membership membership;
  private final List<MessageConsumer<Object>> consumers = new ArrayList<>();
  private long lastMalformedWarning = Long.MIN_VALUE;
  private long malformedUnanswered;
  /** At most this many host ids are remembered as refused, so a flood cannot grow the set. */
  static final int REFUSED_HOSTS_REMEMBERED = 1024;
  private final Set<String> refusedHosts = new HashSet<>();
  private HostMac mac = HostMac.NONE;

  @Override
  public Future<Void> start(HostedPool coordinator) {
    ClusterManager cluster = coordinator.clusterManager();
    if (cluster == null) {
      return Future.succeededFuture();
    }
    Context context = Vertx.currentContext();
    mac = context == null ? HostMac.NONE : HostMac.of(context.owner());
    attach(coordinator, Membership.of(cluster)).forEach((address, handler) ->
        consumers.add(coordinator.eventBus().consumer(address, handler::accept)));
    List<Future<Void>> ready = new ArrayList<>();
    consumers.forEach(c -> ready.add(c.completion()));
    return Future.all(ready).mapEmpty();
  }

  /**
   * Gives {@code coordinator} its {@link HostDirectory} over {@code membership} and returns the
   * handler of each host address ({@code register}, {@code heartbeat}, {@code deregister}; the
   * batch form of {@code completed} goes through the coordinator's own handler): what {@link
   * #start} puts on the bus, and what the failover simulation delivers its network's messages to.
   */
  Map<String, Consumer<Message<Object>>> attach(HostedPool coordinator, Membership membership) {
    this.coordinator = coordinator;
    this.membership = membership;
    directory = new HostDirectory(coordinator, membership, mac);
    coordinator.observe(directory);
    Addresses a = coordinator.addresses();
    Map<String, Consumer<Message<Object>>> routes = new LinkedHashMap<>();
    routes.put(a.register(), m -> handle(m, HostMac.REGISTER, this::register));
    routes.put(a.heartbeat(), m -> handle(m, HostMac.HEARTBEAT, this::heartbeat));
    routes.put(a.deregister(), m -> handle(m, HostMac.DEREGISTER, this::deregister));
    coordinator.handleCompletionBatches(m -> handle(m, HostMac.REPORTS, this::reports));
    membership.watch(node -> coordinator.execute(() -> directory.nodeLeft(node)));
    return routes;
  }

  @Override
  public Future<Void> stop() {
    if (coordinator == null) {
      return Future.succeededFuture();
    }
    coordinator.handleCompletionBatches(null);
    membership.close();
    coordinator.unobserve(directory);
    List<Future<Void>> done = new ArrayList<>();
    consumers.forEach(c -> done.add(c.unregister()));
    return Future.join(done).mapEmpty();
  }

  private void handle(Message<Object> message, String kind,
      Consumer<Message<Object>> handler) {
    if (!mac.verify(kind, message)) {
      unauthenticated(message, kind);
      return;
    }
    try {
      handler.accept(message);
    } catch (BadRequest e) {
      if (message.replyAddress() != null) {
        message.fail(400, e.getMessage());
      } else {
        malformedUnanswered++;
        warnMalformed(message.address(), e.getMessage());
      }
    }
  }

  /**
   * A message without the cluster key's MAC: refused, and said once per host id it names (a host
   * with the wrong key, or a member posing as a host).
   */
  private void unauthenticated(Message<Object> message, String kind) {
    String host = claimedHost(message.body());
    boolean first = refusedHosts.size() < REFUSED_HOSTS_REMEMBERED && refusedHosts.add(host);
    if (first) {
      LOG.warn("pool {}: refused a {} from host {}: {} (it does not prove the cluster key; set"
          + " the same SHEPHERD_CLUSTER_KEY on the host as on the pool)", coordinator.name(), kind,
          LogText.quote(host), HostMac.UNAUTHENTICATED);
    } else {
      LOG.debug("pool {}: refused a {} from host {}: {}", coordinator.name(), kind,
          LogText.quote(host), HostMac.UNAUTHENTICATED);
    }
    if (message.replyAddress() != null) {
      Refusals.fail(message, HostMac.UNAUTHENTICATED_CODE, HostMac.UNAUTHENTICATED,
          "the message does not carry a valid MAC of the cluster key");
    }
  }

  /** The host id a message says it is from, for the log alone (it is not trusted). */
  private static String claimedHost(Object body) {
    try {
      Object host = (body instanceof io.vertx.core.buffer.Buffer buffer
          ? new JsonObject(buffer) : body instanceof JsonObject json ? json : new JsonObject())
          .getValue(HostWire.HOST);
      return host instanceof String text && text.length() <= HostCodec.MAX_ID_LENGTH ? text
          : "<unnamed>";
    } catch (RuntimeException e) {
      return "<unnamed>";
    }
  }

  /** A malformed message nobody waits an answer for: said now and then, never per message. */
  private void warnMalformed(String address, String problem) {
    long now = coordinator.now();
    if (now - lastMalformedWarning >= MALFORMED_WARNING_PERIOD_MS) {
      lastMalformedWarning = now;
      LOG.warn("pool {}: dropped a malformed message on {}: {} ({} so far)", coordinator.name(),
          address, LogText.quote(problem), malformedUnanswered);
    } else {
      LOG.debug("pool {}: dropped a malformed message on {}: {}", coordinator.name(), address,
          LogText.quote(problem));
    }
  }

  private void register(Message<Object> message) {
    HostMessages.Register register = HostCodec.decodeRegister(message.body());
    if (register.heartbeatMs() >= directory.heartbeatTimeoutMs()) {
      throw new BadRequest("heartbeatMs: must be below the pool's heartbeatTimeoutMs of "
          + directory.heartbeatTimeoutMs() + " ms, or the host is lost between two heartbeats"
          + " (was " + register.heartbeatMs() + ")");
    }
    PoolErrorException refusal = directory.register(register);
    if (refusal != null) {
      Refusals.fail(message, refusal);
      return;
    }
    JsonObject registered = HostCodec.encode(new HostMessages.Registered(register.host(),
        directory.term(), directory.heartbeatTimeoutMs()));
    message.reply(registered, mac.sign(HostMac.REGISTERED, directory.term(), registered));
  }

  private void heartbeat(Message<Object> message) {
    HostMessages.Heartbeat heartbeat = HostCodec.decodeHeartbeat(message.body());
    directory.heartbeat(heartbeat);
    if (message.replyAddress() != null) {
      message.reply(new JsonObject().put(HostWire.HOST, heartbeat.host()));
    }
  }

  private void reports(Message<Object> message) {
    HostReport.Batch batch = HostCodec.decodeReports(message.body());
    int refused = directory.reports(batch);
    if (message.replyAddress() != null) {
      message.reply(new JsonObject().put(HostWire.HOST, batch.host())
          .put(HostWire.ITEMS, batch.items().size()).put(HostWire.STALE, refused));
    }
  }

  private void deregister(Message<Object> message) {
    HostMessages.Deregister deregister = HostCodec.decodeDeregister(message.body());
    PoolError refusal = directory.deregister(deregister);
    if (refusal != null) {
      Refusals.fail(message, refusal);
      return;
    }
    JsonObject answer = HostCodec.encode(deregister);
    message.reply(answer, mac.sign(HostMac.DEREGISTERED, directory.term(), answer));
  }
}
