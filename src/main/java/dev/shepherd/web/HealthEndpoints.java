package dev.shepherd.web;

import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import dev.shepherd.runtime.access.PoolDirectory;
import dev.shepherd.runtime.access.PoolHandle;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * {@code GET /health} and {@code GET /ready} through Vert.x health checks, one check per pool
 * (its id is the pool's name, its data the pool's state). Health covers every pool of the {@link
 * PoolDirectory} (in a cluster, pools coordinated elsewhere are asked over the bus, and one that
 * does not answer within the check's timeout is DOWN): UP while the pool runs and has a slot that
 * is not retired; DOWN (503) with the reason otherwise. Readiness covers the pools coordinated on
 * this node, whose work this node takes on: UP once each one's first incarnations have resolved
 * (deployed, or failed and retired), and while the pool is running. A node with no pool to check
 * answers 200 {@code {"status": "UP", "checks": [], "outcome": "UP", "reason"}}. Both are also
 * served for {@code HEAD} (T3 in docs/rules.md).
 */
final class HealthEndpoints {
  /** How long a pool's check may take (a remote pool's status crosses the cluster). */
  static final long CHECK_TIMEOUT_MS = 5_000;

  private final PoolDirectory pools;
  private final HealthCheckHandler health;
  private final HealthCheckHandler ready;
  private final Set<String> healthNames = new HashSet<>();
  private final Set<String> readyNames = new HashSet<>();
  /** Pools whose first incarnations have all resolved (a latch per local pool). */
  private final Set<PoolHandle> resolved =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  HealthEndpoints(Vertx vertx, PoolDirectory pools) {
    this.pools = pools;
    this.health = HealthCheckHandler.create(vertx);
    this.ready = HealthCheckHandler.create(vertx);
  }

  void health(RoutingContext ctx) {
    if (sync(health, healthNames, false, HealthEndpoints::liveness)) {
      health.handle(ctx);
    } else {
      nothingToCheck(ctx, "this node knows no pool");
    }
  }

  void ready(RoutingContext ctx) {
    if (sync(ready, readyNames, true, this::readiness)) {
      ready.handle(ctx);
    } else {
      nothingToCheck(ctx, "this node coordinates no pool; it serves the pools of its cluster");
    }
  }

  /**
   * With no pool to check, 200 and the same shape as with some ({@code status}, {@code checks},
   * {@code outcome}), saying why the list is empty: Vert.x's handler would answer 204 without a
   * body, which probes that read the body take for a failure.
   */
  private static void nothingToCheck(RoutingContext ctx, String why) {
    HttpErrors.json(ctx, 200, new JsonObject().put("status", "UP")
        .put("checks", new JsonArray()).put("outcome", "UP").put("reason", why));
  }

  /**
   * Registers a check for each pool now known (or coordinated here, when {@code localOnly}), and
   * drops the checks of pools that left; false when there is none to check.
   */
  private synchronized boolean sync(HealthCheckHandler handler, Set<String> names,
      boolean localOnly, BiFunction<PoolHandle, PoolSnapshot, Status> check) {
    Map<String, PoolHandle> known = new TreeMap<>();
    pools.pools().stream().filter(p -> !localOnly || p.local())
        .forEach(p -> known.put(p.name(), p));
    if (localOnly) {
      resolved.retainAll(known.values());
    }
    for (String gone : new HashSet<>(names)) {
      if (!known.containsKey(gone)) {
        handler.unregister(gone);
        names.remove(gone);
      }
    }
    for (String name : known.keySet()) {
      if (names.add(name)) {
        handler.register(name, CHECK_TIMEOUT_MS, promise -> probe(name, promise, check));
      }
    }
    return !names.isEmpty();
  }

  private void probe(String name, Promise<Status> promise,
      BiFunction<PoolHandle, PoolSnapshot, Status> check) {
    PoolHandle pool = pools.find(name);
    if (pool == null) {
      promise.tryComplete(Status.KO(new JsonObject().put("reason", "the pool is not deployed")));
      return;
    }
    pool.snapshot().onComplete(ar -> {
      if (ar.failed() && pool.awaitsLeader() && ar.cause() instanceof ReplyException e
          && e.failureType() == ReplyFailure.NO_HANDLERS) {
        // A highly available pool between leaders (or without a majority) is not this node's
        // failure: restarting it would not help.
        promise.tryComplete(Status.OK(new JsonObject().put("leader", "none now")
            .put("reason", "highly available: no node leads it now (a failover under way, or"
                + " too few members for a majority)")));
      } else if (ar.failed()) {
        promise.tryComplete(Status.KO(new JsonObject().put("reason", HttpErrors.why(ar.cause()))));
      } else {
        promise.tryComplete(check.apply(pool, ar.result()));
      }
    });
  }

  /** The pool's health by {@link PoolHealth}, the rule the live view's badge follows too. */
  static Status liveness(PoolHandle pool, PoolSnapshot s) {
    JsonObject data = describe(s);
    PoolHealth health = PoolHealth.of(s);
    return health.up() ? Status.OK(data) : Status.KO(data.put("reason", health.reason()));
  }

  private Status readiness(PoolHandle pool, PoolSnapshot s) {
    JsonObject data = describe(s);
    if (s.state() != PoolState.RUNNING) {
      return Status.KO(data.put("reason", "the pool is " + s.state()));
    }
    boolean firstResolved = s.slots().stream()
        .noneMatch(slot -> slot.phase() == Phase.INSTALLING && slot.incarnation() <= 1
            && slot.restarts() == 0);
    if (firstResolved) {
      resolved.add(pool);
    }
    if (!resolved.contains(pool)) {
      JsonArray pending = new JsonArray();
      s.slots().stream().filter(slot -> slot.phase() == Phase.INSTALLING)
          .forEach(slot -> pending.add(slot.id()));
      return Status.KO(data.put("reason", "first incarnations still deploying")
          .put("installing", pending));
    }
    return Status.OK(data);
  }

  private static JsonObject describe(PoolSnapshot s) {
    JsonObject phases = new JsonObject();
    for (Phase phase : Phase.values()) {
      phases.put(phase.name(), s.slots().stream().filter(x -> x.phase() == phase).count());
    }
    return new JsonObject().put("state", s.state().name()).put("slots", phases);
  }
}
