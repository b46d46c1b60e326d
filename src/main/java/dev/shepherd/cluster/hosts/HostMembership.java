package dev.shepherd.cluster.hosts;

import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Refusals;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a worker host stands with its pool: registering (asking every second until the pool
 * answers), registered (heartbeats every {@code heartbeatMs}), refused (another live host has its
 * id), or gone (it deregistered). Also the highest term the pool has shown, which fences the
 * pool's commands. With a cluster key, what it sends carries its MAC and the pool's answer to a
 * registration must carry the pool's ({@link HostMac}); a pool that refuses its MAC ({@code 401
 * UNAUTHENTICATED_HOST}: the keys differ) is an ERROR once, and the host keeps asking, so a key
 * fixed on either side takes effect. Confined to the host's context.
 */
final class HostMembership {
  private static final Logger LOG = LoggerFactory.getLogger(HostMembership.class);
  /** Time between two registration attempts. */
  static final long REGISTER_RETRY_MS = 1_000;
  /** How long a registration or deregistration waits for the pool's answer. */
  static final long REQUEST_TIMEOUT_MS = 2_000;

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

  private final Vertx vertx;
  /** The host's timers: its heartbeats and registration retries. */
  private final Scheduler scheduler;
  private final HostConfig config;
  private final String node;
  private final Addresses addresses;
  private final Handler<String> onRefused;
  private final HostMac mac;
  private boolean saidUnauthenticated;
  private Phase phase = Phase.STARTING;
  private long term;
  private long heartbeatTimer = -1;
  private long retryTimer = -1;
  /** Bumped by every registration round, so the answers of an older round are ignored. */
  private int round;
  private int attempts;

  /** {@code onRefused} hears the pool's reason when it refuses the host's id. */
  HostMembership(Vertx vertx, Scheduler scheduler, HostConfig config, String node,
      Handler<String> onRefused) {
    this.vertx = vertx;
    this.scheduler = scheduler;
    this.config = config;
    this.node = node;
    this.addresses = new Addresses(config.address());
    this.onRefused = onRefused;
    this.mac = HostMac.of(vertx);
  }

  Phase phase() {
    return phase;
  }

  String node() {
    return node;
  }

  /** The highest term the pool has shown. */
  long term() {
    return term;
  }

  /** The current registration round, counted from 1. */
  int round() {
    return round;
  }

  /** Whether it refused, or left: nothing more is to be done or reported. */
  boolean over() {
    return phase == Phase.LEFT || phase == Phase.REFUSED;
  }

  /** Whether a command message of {@code commandTerm} is current; it raises the term if newer. */
  boolean admits(long commandTerm) {
    if (commandTerm < term) {
      return false;
    }
    term = commandTerm;
    return true;
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

  // ---- registering ---------------------------------------------------------------------------

  /** Starts a registration round: asks the pool every second until it answers. */
  void register() {
    moveTo(Phase.REGISTERING);
    cancelTimers();
    round++;
    attempts = 0;
    attempt(round);
  }

  private void attempt(int thisRound) {
    if (phase != Phase.REGISTERING || thisRound != round) {
      return;
    }
    attempts++;
    List<HostMessages.SlotOffer> offers = new ArrayList<>();
    for (String id : config.slotIds()) {
      offers.add(new HostMessages.SlotOffer(id, config.worker().maxConcurrency()));
    }
    HostMessages.Register body = new HostMessages.Register(config.id(), node,
        config.hostAddress(), offers, config.heartbeatMs());
    JsonObject json = HostCodec.encode(body);
    vertx.eventBus().request(addresses.register(), json, mac.sign(
            new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS), HostMac.REGISTER, 0, json))
        .onComplete(ar -> {
          if (phase != Phase.REGISTERING || thisRound != round) {
            return;
          }
          if (ar.succeeded()) {
            answered(ar.result(), thisRound);
          } else {
            failed(ar.cause(), thisRound);
          }
        });
  }

  private void answered(Message<Object> reply, int thisRound) {
    if (!mac.verify(HostMac.REGISTERED, reply)) {
      LOG.warn("host {}: pool {}'s answer to its registration does not carry the cluster key's"
          + " MAC (a member posing as the pool, or another key); retrying", config.id(),
          config.pool());
      retryLater(thisRound);
      return;
    }
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
    heartbeatTimer = scheduler.every(config.heartbeatMs(), this::heartbeat);
    LOG.info("host {}: registered with pool {} at {} ({} slots, term {}, node {})", config.id(),
        config.pool(), config.address(), config.slotIds().size(), answer.term(), node);
  }

  private void failed(Throwable cause, int thisRound) {
    if (cause instanceof ReplyException reply
        && reply.failureType() == ReplyFailure.RECIPIENT_FAILURE
        && Refusals.named(reply, "DUPLICATE_HOST")) {
      moveTo(Phase.REFUSED);
      cancelTimers();
      onRefused.handle(reply.getMessage());
      return;
    }
    if (cause instanceof ReplyException reply
        && reply.failureCode() == HostMac.UNAUTHENTICATED_CODE
        && Refusals.parse(reply).name().equals(HostMac.UNAUTHENTICATED)) {
      if (!saidUnauthenticated) {
        saidUnauthenticated = true;
        LOG.error("host {}: pool {} refuses it: {} (set the same SHEPHERD_CLUSTER_KEY on the"
            + " host as on the pool); registering again every {} ms", config.id(),
            config.pool(), HostMac.UNAUTHENTICATED, REGISTER_RETRY_MS);
      }
      retryLater(thisRound);
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
    retryTimer = scheduler.after(REGISTER_RETRY_MS, () -> attempt(thisRound));
  }

  private void heartbeat() {
    if (phase == Phase.REGISTERED) {
      JsonObject json = HostCodec.encode(
          new HostMessages.Heartbeat(config.id(), node, config.hostAddress(), round));
      vertx.eventBus().send(addresses.heartbeat(), json,
          mac.sign(HostMac.HEARTBEAT, term, json));
    }
  }

  // ---- leaving -------------------------------------------------------------------------------

  /**
   * Stops registering and heartbeats; tells the pool when it had registered or was registering.
   * Completes when the pool answered, or did not within {@link #REQUEST_TIMEOUT_MS}.
   */
  Future<Void> leave() {
    if (phase == Phase.LEFT) {
      return Future.succeededFuture();
    }
    boolean tellPool = phase == Phase.REGISTERED || phase == Phase.REGISTERING;
    moveTo(Phase.LEFT);
    cancelTimers();
    if (!tellPool) {
      return Future.succeededFuture();
    }
    JsonObject json = HostCodec.encode(new HostMessages.Deregister(config.id()));
    return vertx.eventBus().request(addresses.deregister(), json, mac.sign(
            new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS), HostMac.DEREGISTER, 0, json))
        .onSuccess(m -> LOG.info("host {}: left pool {}", config.id(), config.pool()))
        .onFailure(e -> LOG.info("host {}: pool {} did not answer its deregistration ({});"
            + " it finds the host gone by itself", config.id(), config.pool(), e.getMessage()))
        .<Void>mapEmpty().recover(e -> Future.succeededFuture());
  }

  private void cancelTimers() {
    scheduler.cancel(heartbeatTimer);
    scheduler.cancel(retryTimer);
    heartbeatTimer = -1;
    retryTimer = -1;
  }
}
