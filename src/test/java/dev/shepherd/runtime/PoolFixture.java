package dev.shepherd.runtime;

import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Outcome;
import dev.shepherd.demo.DemoWorker;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * End-to-end test fixture: pool configurations around {@link DemoWorker}, deploying real {@link
 * PoolVerticle}s, and blocking helpers for the test thread (never an event loop) with short
 * timeouts. Everything goes through public surfaces: the verticle's config, the event bus, {@link
 * PoolClient}.
 */
public final class PoolFixture {
  /** The longest any single step of a test may take. */
  public static final Duration STEP = Duration.ofSeconds(10);

  private PoolFixture() {}

  /**
   * A pool of {@code instances} DemoWorker slots with test-friendly settings: a 20 ms tick, a short
   * drain, FAIL interruption (so outcomes show what happened), a generous budget.
   */
  public static JsonObject demoPool(String name, int instances) {
    return new JsonObject()
        .put("name", name)
        .put("worker", new JsonObject()
            .put("class", DemoWorker.class.getName())
            .put("instances", instances)
            .put("threading", "WORKER"))
        .put("backlogCapacity", 100)
        .put("interruption", "FAIL")
        .put("jobTimeoutMs", 10_000)
        .put("drainTimeoutMs", 1_000)
        .put("supervision", new JsonObject()
            .put("policy", "PERMANENT")
            .put("strategy", "ONE_FOR_ONE")
            .put("maxRestarts", 100)
            .put("restartWindowMs", 10_000));
  }

  /**
   * {@code pool} with the seed's rules instead of the defaults that heal (section 10 off, as
   * docs/configuration.md lists it): no suspects or poison ({@code poisonAfter} 0), a job
   * interrupted goes back at once ({@code retryBackoff.initialMs} 0), a stopped slot is replaced at
   * once ({@code restartBackoff.initialMs} 0) and a retired one stays retired ({@code
   * reviveAfterMs} 0). For tests of P9, P13 and sections 4 and 8, which state those rules; a field
   * the configuration already sets is kept. Returns {@code pool}, edited.
   */
  public static JsonObject seedRules(JsonObject pool) {
    putIfAbsent(pool, "poisonAfter", 0);
    putIfAbsent(pool, "retryBackoff", new JsonObject().put("initialMs", 0));
    if (pool.getJsonObject("supervision") == null) {
      pool.put("supervision", new JsonObject());
    }
    JsonObject supervision = pool.getJsonObject("supervision");
    putIfAbsent(supervision, "restartBackoff", new JsonObject().put("initialMs", 0));
    putIfAbsent(supervision, "reviveAfterMs", 0);
    return pool;
  }

  private static void putIfAbsent(JsonObject json, String field, Object value) {
    if (json.getValue(field) == null) {
      json.put(field, value);
    }
  }

  /** The {@code worker} object of a pool configuration, for editing. */
  public static JsonObject worker(JsonObject pool) {
    return pool.getJsonObject("worker");
  }

  /** The {@code supervision} object of a pool configuration, for editing. */
  public static JsonObject supervision(JsonObject pool) {
    return pool.getJsonObject("supervision");
  }

  /** Deploys a coordinator with {@code config}; returns the deployment id. */
  public static String deploy(Vertx vertx, JsonObject config) {
    return join(vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(config)));
  }

  /** Deploys and waits until every slot has left INSTALLING. */
  public static String deployReady(Vertx vertx, JsonObject config) {
    String id = deploy(vertx, config);
    awaitStatus(vertx, config.getString("name"), s -> slots(s).stream()
        .noneMatch(slot -> "INSTALLING".equals(((JsonObject) slot).getString("phase"))));
    return id;
  }

  // ---- futures ---------------------------------------------------------------------------------

  /** The future's value, waiting at most {@link #STEP}; its failure is rethrown as it is. */
  public static <T> T join(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(STEP.toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new AssertionError("future failed", e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("no answer within " + STEP);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** The failure of a future that must fail, waiting at most {@link #STEP}. */
  public static Throwable failure(Future<?> future) {
    try {
      Object value = future.toCompletionStage().toCompletableFuture().get(STEP.toMillis(),
          TimeUnit.MILLISECONDS);
      throw new AssertionError("expected a failure, got " + value);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("no answer within " + STEP);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  // ---- outcomes through PoolClient -------------------------------------------------------------

  /** The terminal outcome (or the rejection) of one job submitted in-JVM. */
  public static Outcome run(Vertx vertx, String pool, JobRequest request) {
    return join(PoolClient.create(vertx, pool).outcome(request));
  }

  public static Outcome run(Vertx vertx, String pool, JsonObject payload) {
    return run(vertx, pool, JobRequest.of(payload));
  }

  // ---- event bus -------------------------------------------------------------------------------

  public static Addresses addresses(String pool) {
    return Addresses.forPool(pool);
  }

  /** A request/reply over the bus; returns the reply body. */
  public static JsonObject request(Vertx vertx, String address, Object body) {
    Message<Object> reply = join(vertx.eventBus().request(address, body,
        new DeliveryOptions().setSendTimeout(STEP.toMillis())));
    return (JsonObject) reply.body();
  }

  /** A request that must be refused with {@code fail(code, …)}; returns the failure. */
  public static ReplyException refused(Vertx vertx, String address, Object body) {
    Throwable failure = failure(vertx.eventBus().request(address, body,
        new DeliveryOptions().setSendTimeout(STEP.toMillis())));
    if (!(failure instanceof ReplyException reply)) {
      throw new AssertionError("expected a ReplyException, got " + failure, failure);
    }
    return reply;
  }

  /** The pool's status snapshot over the bus ({@code .status}). */
  public static JsonObject status(Vertx vertx, String pool) {
    return request(vertx, addresses(pool).status(), new JsonObject());
  }

  /** Polls the status until {@code condition} holds; returns the snapshot that satisfied it. */
  public static JsonObject awaitStatus(Vertx vertx, String pool, Predicate<JsonObject> condition) {
    JsonObject[] last = new JsonObject[1];
    await().atMost(STEP).pollInterval(Duration.ofMillis(20)).until(() -> {
      last[0] = status(vertx, pool);
      return condition.test(last[0]);
    });
    return last[0];
  }

  public static JsonArray slots(JsonObject status) {
    return status.getJsonArray("slots");
  }

  public static JsonObject slot(JsonObject status, String id) {
    for (Object o : slots(status)) {
      JsonObject slot = (JsonObject) o;
      if (id.equals(slot.getString("id"))) {
        return slot;
      }
    }
    throw new AssertionError("no slot " + id + " in " + status.encodePrettily());
  }

  public static String phase(JsonObject status, String slot) {
    return slot(status, slot).getString("phase");
  }

  public static long counter(JsonObject status, String name) {
    return status.getJsonObject("counters").getLong(name);
  }

  /** A status predicate: slot {@code id} is in {@code phase}. */
  public static Predicate<JsonObject> phaseIs(String id, String phase) {
    return s -> phase.equals(phase(s, id));
  }

  /** A status predicate: slot {@code id} is IDLE with incarnation {@code n}. */
  public static Predicate<JsonObject> idleAt(String id, int incarnation) {
    return s -> "IDLE".equals(phase(s, id))
        && slot(s, id).getInteger("incarnation") == incarnation;
  }

  /** A status predicate: slot {@code id} holds job {@code job}. */
  public static Predicate<JsonObject> running(String id, String job) {
    return s -> slot(s, id).getJsonArray("assignments").stream()
        .anyMatch(a -> job.equals(((JsonObject) a).getString("job")));
  }

  // ---- payloads --------------------------------------------------------------------------------

  public static JsonObject echo(Object value) {
    return new JsonObject().put("echo", value);
  }

  public static JsonObject sleep(long ms) {
    return new JsonObject().put("sleepMs", ms);
  }

  public static JsonObject crash() {
    return new JsonObject().put("crash", true);
  }

  public static JsonObject hang() {
    return new JsonObject().put("hang", true);
  }

  public static JsonObject exit() {
    return new JsonObject().put("exit", true);
  }

  public static JsonObject fail(String message) {
    return new JsonObject().put("fail", message);
  }
}
