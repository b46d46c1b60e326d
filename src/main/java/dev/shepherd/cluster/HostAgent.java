package dev.shepherd.cluster;

import dev.shepherd.core.ConfigException;
import dev.shepherd.runtime.Addresses;
import dev.shepherd.runtime.BadRequest;
import dev.shepherd.runtime.Inbox;
import dev.shepherd.runtime.LogText;
import dev.shepherd.runtime.Outbox;
import io.vertx.core.Closeable;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker host (H1-H4): runs the slots of one {@code hosts} entry for a pool coordinated on
 * another node, as {@code docs/protocol.md} ("Worker hosts") describes. It registers (every
 * second until answered), carries out the pool's commands on the incarnations they name (fenced
 * by incarnation and by term), reports completions and facts in one message per turn, sends
 * heartbeats, registers again when told to, and deregisters when it stops. It decides nothing
 * itself: restarts, timeouts and dispatch are the pool's.
 *
 * <p>A second live host with the same id is refused by the pool ({@code 409 DUPLICATE_HOST}):
 * the agent stops and hands {@code onRefused} an error naming {@code hosts[i].id}.
 */
public final class HostAgent extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(HostAgent.class);
  /** Time between two registration attempts. */
  static final long REGISTER_RETRY_MS = 1_000;
  /** How long a registration or deregistration waits for the pool's answer. */
  static final long REQUEST_TIMEOUT_MS = 2_000;
  /** How long leaving waits for incarnations to undeploy (a blocked worker thread may never). */
  static final long UNDEPLOY_GRACE_MS = 5_000;

  /** Where the host is with its pool. Moves only through {@link #moveTo}. */
  enum Phase {
    STARTING,
    /** Asking the pool to take its slots, every second until answered. */
    REGISTERING,
    /** The pool took its slots: heartbeats run. */
    REGISTERED,
    /** The pool refused its id: it does nothing more. */
    REFUSED,
    /** It deregistered (or is doing so): it does nothing more. */
    LEFT
  }

  private final HostConfig config;
  private final Handler<ConfigException> onRefused;
  private final Map<String, HostSlot> slots = new LinkedHashMap<>();
  private final Addresses addresses;
  private Phase phase = Phase.STARTING;
  private long term;
  private String node;
  private Inbox inbox;
  private Outbox outbox;
  private HostReports reports;
  private Context deployFrom;
  private MessageConsumer<Object> commands;
  private long heartbeatTimer = -1;
  private long retryTimer = -1;
  /** Bumped by every registration round, so the answers of an older round are ignored. */
  private int round;
  private int attempts;
  private long ignoredCommands;
  private final Closeable leaveOnClose = completion ->
      context.runOnContext(v -> leave().onComplete(completion));

  /**
   * The host of {@code config}; {@code onRefused} is called (on the host's context) if the pool
   * refuses its id.
   */
  public HostAgent(HostConfig config, Handler<ConfigException> onRefused) {
    this.config = config;
    this.onRefused = onRefused;
    this.addresses = new Addresses(config.address());
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

  /** Runs {@code task} on the host's context, batched with other hand-ins; from any thread. */
  void execute(Runnable task) {
    inbox.offer(task);
  }

  void report(HostReport report) {
    if (phase != Phase.LEFT && phase != Phase.REFUSED) {
      reports.add(report);
    }
  }

  boolean leaving() {
    return phase == Phase.LEFT || phase == Phase.REFUSED;
  }

  private void moveTo(Phase next) {
    boolean legal = switch (phase) {
      case STARTING -> next == Phase.REGISTERING || next == Phase.LEFT;
      case REGISTERING -> next != Phase.STARTING;
      case REGISTERED -> next == Phase.REGISTERING || next == Phase.LEFT;
      case REFUSED -> next == Phase.LEFT;
      case LEFT -> false;
    };
    if (!legal) {
      throw new IllegalStateException("host " + config.id() + ": illegal move " + phase + " -> "
          + next);
    }
    phase = next;
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  @Override
  public Future<?> start() {
    ClusterManager cluster = ((VertxInternal) vertx).clusterManager();
    node = cluster == null ? "local" : cluster.getNodeId();
    deployFrom = ((VertxInternal) vertx).createEventLoopContext();
    outbox = new Outbox(context);
    reports = new HostReports(context, vertx.eventBus(), addresses.completed(), config.id());
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
      register();
    });
  }

  @Override
  public Future<?> stop() {
    ((VertxInternal) vertx).removeCloseHook(leaveOnClose);
    return leave();
  }

  /** Deregisters (if registered), then stops every incarnation. */
  private Future<Void> leave() {
    if (phase == Phase.LEFT) {
      return Future.succeededFuture();
    }
    boolean tellPool = phase == Phase.REGISTERED || phase == Phase.REGISTERING;
    moveTo(Phase.LEFT);
    cancelTimers();
    reports.drop();
    Future<Void> told = Future.succeededFuture();
    if (tellPool) {
      told = vertx.eventBus().request(addresses.deregister(),
              HostCodec.encode(new HostMessages.Deregister(config.id())),
              new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS))
          .onSuccess(m -> LOG.info("host {}: left pool {}", config.id(), config.pool()))
          .onFailure(e -> LOG.info("host {}: pool {} did not answer its deregistration ({});"
              + " it finds the host gone by itself", config.id(), config.pool(), e.getMessage()))
          .<Void>mapEmpty().recover(e -> Future.succeededFuture());
    }
    return told.compose(v -> stopIncarnations()).eventually(() -> commands.unregister());
  }

  private Future<Void> stopIncarnations() {
    List<Future<Void>> undeploys = new ArrayList<>();
    slots.values().forEach(slot -> undeploys.add(slot.reset()));
    Promise<Void> done = Promise.promise();
    Future.join(undeploys).onComplete(ar -> done.tryComplete());
    vertx.setTimer(UNDEPLOY_GRACE_MS, id -> {
      if (done.tryComplete()) {
        LOG.warn("host {}: some incarnations did not undeploy within {} ms (a worker thread is"
            + " blocked in a job)", config.id(), UNDEPLOY_GRACE_MS);
      }
    });
    return done.future();
  }

  private void cancelTimers() {
    vertx.cancelTimer(heartbeatTimer);
    vertx.cancelTimer(retryTimer);
    heartbeatTimer = -1;
    retryTimer = -1;
  }

  // ---- registration --------------------------------------------------------------------------

  /** Starts a registration round: asks the pool every second until it answers. */
  private void register() {
    moveTo(Phase.REGISTERING);
    cancelTimers();
    round++;
    attempts = 0;
    attemptRegistration(round);
  }

  private void attemptRegistration(int thisRound) {
    if (phase != Phase.REGISTERING || thisRound != round) {
      return;
    }
    attempts++;
    List<HostMessages.SlotOffer> offers = new ArrayList<>();
    for (String id : slots.keySet()) {
      offers.add(new HostMessages.SlotOffer(id, config.worker().maxConcurrency()));
    }
    HostMessages.Register body = new HostMessages.Register(config.id(), node,
        config.hostAddress(), offers, config.heartbeatMs());
    vertx.eventBus().request(addresses.register(), HostCodec.encode(body),
            new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS))
        .onComplete(ar -> {
          if (phase != Phase.REGISTERING || thisRound != round) {
            return;
          }
          if (ar.succeeded()) {
            registered(ar.result(), thisRound);
          } else {
            registrationFailed(ar.cause(), thisRound);
          }
        });
  }

  private void registered(Message<Object> reply, int thisRound) {
    HostMessages.Registered answer;
    try {
      answer = HostCodec.decodeRegistered(reply.body());
    } catch (BadRequest e) {
      LOG.warn("host {}: pool {} answered its registration with a malformed body ({});"
          + " retrying", config.id(), config.pool(), e.getMessage());
      retryLater(thisRound);
      return;
    }
    term = Math.max(term, answer.term());
    moveTo(Phase.REGISTERED);
    heartbeatTimer = vertx.setPeriodic(config.heartbeatMs(), id -> heartbeat());
    LOG.info("host {}: registered with pool {} at {} ({} slots, term {}, node {})", config.id(),
        config.pool(), config.address(), slots.size(), answer.term(), node);
  }

  private void registrationFailed(Throwable cause, int thisRound) {
    if (cause instanceof ReplyException reply
        && reply.failureType() == ReplyFailure.RECIPIENT_FAILURE
        && reply.failureCode() == 409 && String.valueOf(reply.getMessage())
            .startsWith("DUPLICATE_HOST")) {
      refused(reply.getMessage());
      return;
    }
    if (attempts == 1) {
      LOG.info("host {}: no answer from pool {} at {} yet ({}); registering again every {} ms",
          config.id(), config.pool(), addresses.register(), cause.getMessage(),
          REGISTER_RETRY_MS);
    } else {
      LOG.debug("host {}: registration attempt {} failed: {}", config.id(), attempts,
          cause.getMessage());
    }
    retryLater(thisRound);
  }

  private void retryLater(int thisRound) {
    retryTimer = vertx.setTimer(REGISTER_RETRY_MS, id -> attemptRegistration(thisRound));
  }

  private void refused(String reason) {
    moveTo(Phase.REFUSED);
    cancelTimers();
    ConfigException error = new ConfigException(config.path() + ".id", config.id(),
        "another live host of pool " + config.pool() + " has this id (" + reason + ")");
    LOG.error("host {}: {}", config.id(), error.getMessage());
    stopIncarnations();
    onRefused.handle(error);
  }

  private void heartbeat() {
    if (phase == Phase.REGISTERED) {
      vertx.eventBus().send(addresses.heartbeat(), HostCodec.encode(
          new HostMessages.Heartbeat(config.id(), node, config.hostAddress())));
    }
  }

  // ---- commands ------------------------------------------------------------------------------

  private void onCommands(Message<Object> message) {
    if (leaving()) {
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
    if (batch.term() < term) {
      ignoredCommands += batch.items().size();
      LOG.debug("host {}: ignored {} commands of term {} (the pool's term is {})", config.id(),
          batch.items().size(), batch.term(), term);
      return;
    }
    term = batch.term();
    for (HostCommand command : batch.items()) {
      if (!carryOut(command)) {
        ignoredCommands++;
        LOG.debug("host {}: ignored {}", config.id(), command);
      }
      if (leaving()) {
        return;
      }
    }
  }

  /** Carries out one command; false when it is ignored (stale, or for an unknown slot). */
  private boolean carryOut(HostCommand command) {
    if (command instanceof HostCommand.Reregister) {
      LOG.info("host {}: pool {} asks it to register again; stopping its incarnations",
          config.id(), config.pool());
      slots.values().forEach(HostSlot::reset);
      register();
      return true;
    }
    if (command instanceof HostCommand.Assign assign) {
      HostSlot slot = slots.get(assign.worker());
      return slot != null && slot.assign(assign);
    } else if (command instanceof HostCommand.Deploy deploy) {
      HostSlot slot = slots.get(deploy.worker());
      return slot != null && slot.deploy(deploy.incarnation());
    } else if (command instanceof HostCommand.Stop stop) {
      HostSlot slot = slots.get(stop.worker());
      return slot != null && slot.stop(stop.incarnation());
    } else if (command instanceof HostCommand.Cancel cancel) {
      HostSlot slot = slots.get(cancel.worker());
      return slot != null && slot.cancel(cancel.incarnation(), cancel.assignment());
    }
    throw new AssertionError("unhandled " + command);
  }

  // ---- what tests and status read (host context) ---------------------------------------------

  Phase phase() {
    return phase;
  }

  long term() {
    return term;
  }

  long ignoredCommands() {
    return ignoredCommands;
  }

  HostReports reports() {
    return reports;
  }

  Map<String, HostSlot> slots() {
    return slots;
  }
}
