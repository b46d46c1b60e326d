package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.slots;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.JobSettings;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.UnaryOperator;

/**
 * Pools with section 10's job settings for the J5 and J6 tests, set through {@link
 * PoolVerticle#PoolVerticle(UnaryOperator)} (the configuration's JSON of this base does not say
 * them yet), and the two ways a {@link PoolClient} reaches a pool: handed straight to its
 * coordinator, or over the bus as a client elsewhere would.
 */
public final class JobsFixture {
  private JobsFixture() {}

  /** {@link JobSettings#DEFAULT} with suspects retried after 20 ms, so poison comes quickly. */
  public static JobSettings quick() {
    return JobSettings.DEFAULT.withRetryBackoff(new Backoff(20, 1.0, 20, 0));
  }

  /** What makes a pool's configuration use {@code jobs}. */
  public static UnaryOperator<PoolConfig> withJobs(JobSettings jobs) {
    return config -> config.withSettings(config.settings().withJobs(jobs));
  }

  /** Deploys a coordinator of {@code config} with {@code jobs}; waits until no slot installs. */
  public static String deployReady(Vertx vertx, JsonObject config, JobSettings jobs) {
    String id = join(vertx.deployVerticle(new PoolVerticle(withJobs(jobs)),
        new DeploymentOptions().setConfig(config)));
    awaitStatus(vertx, config.getString("name"), s -> slots(s).stream()
        .noneMatch(slot -> "INSTALLING".equals(((JsonObject) slot).getString("phase"))));
    return id;
  }

  /**
   * A pool configuration of {@code instances} DemoWorker slots (see {@link
   * PoolFixture#demoPool}) that retries interrupted jobs, so a job that keeps crashing its
   * worker is poisoned (J2).
   */
  public static JsonObject retryingPool(String name, int instances) {
    return PoolFixture.demoPool(name, instances).put("interruption", "RETRY")
        .put("maxAttempts", 5);
  }

  /** A client of {@code pool} that hands its calls straight to the coordinator of this JVM. */
  public static PoolClient local(Vertx vertx, String pool) {
    return PoolClient.create(vertx, pool);
  }

  /**
   * A client of {@code pool} that speaks protocol v1 over the bus, as one on another node does:
   * it is made for a name no pool of this JVM has, with the pool's address prefix.
   */
  public static PoolClient overBus(Vertx vertx, String pool) {
    return PoolClient.create(vertx, pool + "-elsewhere", Addresses.forPool(pool).prefix(),
        PoolClient.DEFAULT_REQUEST_TIMEOUT_MS);
  }
}
