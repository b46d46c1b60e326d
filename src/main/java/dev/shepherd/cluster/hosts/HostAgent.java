package dev.shepherd.cluster.hosts;

import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.coordinator.Inbox;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.coordinator.Outbox;
import dev.shepherd.runtime.time.RuntimeTime;
import dev.shepherd.runtime.time.Scheduler;
import io.netty.channel.EventLoop;
import io.vertx.core.Closeable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker host (H1-H4 in docs/rules.md): runs the slots of one {@code hosts} entry for a pool
 * coordinated on another node, as {@code docs/protocol.md} ("Worker hosts") describes. It registers
 * (every second until answered), carries out the pool's commands on the incarnations they name
 * (fenced by incarnation and by term), reports completions and facts in one message per turn, sends
 * heartbeats, registers again when told to, and deregisters when it stops. It decides nothing
 * itself: restarts, timeouts and dispatch are the pool's.
 *
 * <p>With a cluster key, a command message without the pool's MAC ({@link HostMac}) is refused
 * before it is read: an ERROR the first time, then counted.
 *
 * <p>A second live host with the same id is refused by the pool ({@code 409 DUPLICATE_HOST}):
 * the agent stops its slots and hands {@code onRefused} an error naming {@code hosts[i].id}.
 */
public final class HostAgent extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(HostAgent.class);
  /** How long leaving waits for incarnations to undeploy (a blocked worker thread may never). */
  static final long UNDEPLOY_GRACE_MS = 5_000;

  private final HostConfig config;
  private final Handler<ConfigException> onRefused;
  private final Map<String, HostSlot> slots = new LinkedHashMap<>();
  private HostMembership membership;
  private Inbox inbox;
  private Outbox outbox;
  private HostReports reports;
  private Context deployFrom;
  private Scheduler scheduler;
  private MessageConsumer<Object> commands;
  private long ignoredCommands;
  private HostMac mac = HostMac.NONE;
  private long unauthenticatedCommands;
  private final Closeable leaveOnClose = completion ->
      context.runOnContext(v -> leave().onComplete(completion));

  /**
   * The host of {@code config}; {@code onRefused} is called (on the host's context) if the pool
   * refuses its id.
   */
  public HostAgent(HostConfig config, Handler<ConfigException> onRefused) {
    this.config = config;
    this.onRefused = onRefused;
  }

  public String id() {
    return config.id();
  }

  public HostConfig hostConfig() {
    return config;
  }

  Vertx vertx() {
    return vertx;
  }

  Outbox outbox() {
    return outbox;
  }

  /**
   * Where incarnations are deployed from: outside this verticle's deployment, so that stopping
   * the host deregisters first and then stops them (Vert.x undeploys children before parents).
   */
  Context deployFrom() {
    return deployFrom;
  }

  /**
   * Where the host's EVENT_LOOP incarnations run: its own event loop, unless the configuration
   * says {@code shareEventLoop: false} (null: each on a loop Vert.x picks).
   */
  EventLoop sharedEventLoop() {
    return config.shareEventLoop() ? ((ContextInternal) context).nettyEventLoop() : null;
  }

  /** Timers on the host's context. */
  Scheduler scheduler() {
    return scheduler;
  }

  /** Runs {@code task} on the host's context, batched with other hand-ins; from any thread. */
  void execute(Runnable task) {
    inbox.offer(task);
  }

  /** Queues a report for this turn's message, unless the host is done with its pool. */
  void report(HostReport report) {
    if (!membership.over()) {
      reports.add(report);
    }
  }

  /** Whether the host refused or left: an incarnation undeployed now is not news to the pool. */
  boolean leaving() {
    return membership.over();
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  @Override
  public Future<?> start() {
    ClusterManager cluster = ((VertxInternal) vertx).clusterManager();
    scheduler = RuntimeTime.of(vertx).scheduler(context);
    membership = new HostMembership(vertx, scheduler, config,
        cluster == null ? "local" : cluster.getNodeId(), this::refused);
    deployFrom = ((VertxInternal) vertx).createEventLoopContext();
    outbox = new Outbox(context);
    mac = HostMac.of(vertx);
    reports = new HostReports(context, vertx.eventBus(),
        new Addresses(config.address()).completed(), config.id(), mac, membership::term);
    inbox = new Inbox(context, () -> {
      outbox.flush();
      reports.flush();
    });
    for (String id : config.slotIds()) {
      slots.put(id, new HostSlot(this, id, config.worker()));
    }
    commands = vertx.eventBus().consumer(config.hostAddress(), this::onCommands);
    return commands.completion().onSuccess(v -> {
      ((VertxInternal) vertx).addCloseHook(leaveOnClose);
      membership.register();
    });
  }

  @Override
  public Future<?> stop() {
    ((VertxInternal) vertx).removeCloseHook(leaveOnClose);
    return leave();
  }

  /** Deregisters (if registered), then stops every incarnation. */
  private Future<Void> leave() {
    if (membership.phase() == HostMembership.Phase.LEFT) {
      return Future.succeededFuture();
    }
    Future<Void> told = membership.leave();
    reports.drop();
    return told.compose(v -> stopIncarnations()).eventually(() -> commands.unregister());
  }

  private Future<Void> stopIncarnations() {
    List<Future<Void>> undeploys = new ArrayList<>();
    slots.values().forEach(slot -> undeploys.add(slot.reset()));
    Promise<Void> done = Promise.promise();
    Future.join(undeploys).onComplete(ar -> done.tryComplete());
    scheduler.after(UNDEPLOY_GRACE_MS, () -> {
      if (done.tryComplete()) {
        LOG.warn("host {}: some incarnations did not undeploy within {} ms (a worker thread is"
            + " blocked in a job)", config.id(), UNDEPLOY_GRACE_MS);
      }
    });
    return done.future();
  }

  private void refused(String reason) {
    ConfigException error = new ConfigException(config.path() + ".id", config.id(),
        "another live host of pool " + config.pool() + " has this id (" + reason + ")");
    LOG.error("host {}: {}", config.id(), error.getMessage());
    reports.drop();
    stopIncarnations();
    onRefused.handle(error);
  }

  // ---- commands ------------------------------------------------------------------------------

  private void onCommands(Message<Object> message) {
    if (membership.over()) {
      return;
    }
    if (!mac.verify(HostMac.COMMANDS, message)) {
      // Said once, then counted: a member without the key posing as the pool, or another key.
      if (unauthenticatedCommands++ == 0) {
        LOG.error("host {}: refused a command message that does not carry the cluster key's MAC"
            + " (set the same SHEPHERD_CLUSTER_KEY on the pool as on the host)", config.id());
      }
      if (message.replyAddress() != null) {
        message.fail(HostMac.UNAUTHENTICATED_CODE, HostMac.UNAUTHENTICATED
            + ": the message does not carry a valid MAC of the cluster key");
      }
      return;
    }
    HostCommand.Batch batch;
    try {
      batch = HostCodec.decodeCommands(message.body());
    } catch (BadRequest e) {
      LOG.warn("host {}: ignored a malformed command message: {}", config.id(),
          LogText.quote(e.getMessage()));
      if (message.replyAddress() != null) {
        message.fail(400, e.getMessage());
      }
      return;
    }
    if (!membership.admits(batch.term())) {
      ignoredCommands += batch.items().size();
      // Worth a line each time: only a coordinator that was replaced sends these (A2).
      LOG.info("host {}: refused {} commands of term {}: it has seen term {} (a coordinator"
          + " that was replaced)", config.id(), batch.items().size(), batch.term(),
          membership.term());
      return;
    }
    for (HostCommand command : batch.items()) {
      if (!carryOut(command)) {
        ignoredCommands++;
        LOG.debug("host {}: ignored {}", config.id(), command);
      }
      if (membership.over()) {
        return;
      }
    }
  }

  /** Carries out one command; false when it is ignored (of an older term, or for an unknown slot). */
  private boolean carryOut(HostCommand command) {
    if (command instanceof HostCommand.Reregister reregister) {
      if (reregister.round() != 0 && reregister.round() != membership.round()) {
        // It answers a heartbeat of an earlier round: the host has registered again since.
        return false;
      }
      LOG.info("host {}: pool {} asks it to register again; stopping its incarnations",
          config.id(), config.pool());
      slots.values().forEach(HostSlot::reset);
      membership.register();
      return true;
    } else if (command instanceof HostCommand.Assign assign) {
      HostSlot slot = slots.get(assign.worker());
      return slot != null && slot.assign(assign);
    } else if (command instanceof HostCommand.Deploy deploy) {
      HostSlot slot = slots.get(deploy.worker());
      return slot != null && slot.deploy(deploy.incarnation(), membership.term());
    } else if (command instanceof HostCommand.Stop stop) {
      HostSlot slot = slots.get(stop.worker());
      return slot != null && slot.stop(stop.incarnation());
    } else if (command instanceof HostCommand.Cancel cancel) {
      HostSlot slot = slots.get(cancel.worker());
      return slot != null && slot.cancel(cancel.incarnation(), cancel.assignment());
    }
    throw new AssertionError("unhandled " + command);
  }

  // ---- what tests read (host context) --------------------------------------------------------

  HostMembership.Phase phase() {
    return membership.phase();
  }

  long term() {
    return membership.term();
  }

  long ignoredCommands() {
    return ignoredCommands;
  }

  long unauthenticatedCommands() {
    return unauthenticatedCommands;
  }

  Map<String, HostSlot> slots() {
    return slots;
  }
}
