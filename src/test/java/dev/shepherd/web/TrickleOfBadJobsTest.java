package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The incident of issue 15, through the whole product: the shipped {@code conf/config.json}
 * (4 demo slots, the default budget of 5 restarts in 10 s), HTTP, and a steady trickle of jobs
 * in which one in fifteen is bad. Before section 10, crashing jobs retired every slot within
 * 16 s. Now every good job completes, every bad one is answered POISON after {@code poisonAfter}
 * stops and is listed in the dead-letter set, no slot retires, and {@code /health} stays UP
 * (J2, J5, J7). Outcomes are collected later by lookup ({@code ?wait=true}, J6).
 */
class TrickleOfBadJobsTest {
  private static final int JOBS = 60;
  private static final long EVERY_MS = 130;

  private WebTestApp app;
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void tearDown() {
    sampler.shutdownNow();
    if (app != null) {
      app.close();
    }
  }

  @Test
  void J7_a_trickle_of_crashing_jobs_on_the_shipped_defaults_keeps_the_pool_whole()
      throws Exception {
    run(new JsonObject().put("crash", true), null);
  }

  @Test
  void J7_a_trickle_of_hanging_jobs_on_the_shipped_defaults_keeps_the_pool_whole()
      throws Exception {
    run(new JsonObject().put("hang", true), 400L);
  }

  /**
   * A worker that is really broken (every job crashes it, so every crash is a fresh job's) still
   * spends the budget: its slots retire, the pool says why, and {@code /health} is DOWN once none
   * is left (J2, J8).
   */
  @Test
  void J2_a_worker_that_crashes_on_every_job_still_exhausts_the_budget_and_says_so()
      throws Exception {
    app = WebTestApp.start(shippedConfig());
    String base = app.url("/api/pools/jobs");
    for (int i = 0; i < 30; i++) {
      Http.submit(app, "jobs", new JsonObject().put("payload", new JsonObject().put("crash", true)));
    }
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
        .until(() -> Http.get(app.url("/health")).status() == 503);
    JsonObject status = Http.get(base).json();
    assertThat(status.getJsonObject("counters").getLong("budgetRefusals")).isPositive();
    for (Object slot : status.getJsonArray("slots")) {
      assertThat(((JsonObject) slot).getString("retirement")).isEqualTo("REPLACEMENT_UNAVAILABLE");
    }
    JsonObject health = Http.get(app.url("/health")).json();
    assertThat(health.encode()).contains("DOWN");
  }

  private void run(JsonObject badPayload, Long badTimeoutMs) throws Exception {
    app = WebTestApp.start(shippedConfig());
    String base = app.url("/api/pools/jobs");
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger healthChecks = new AtomicInteger();
    sampler.scheduleAtFixedRate(() -> {
      JsonObject status = Http.get(base).json();
      for (Object slot : status.getJsonArray("slots")) {
        seen.add(((JsonObject) slot).getString("phase"));
      }
      seen.add("state:" + status.getString("state"));
      if (Http.get(app.url("/health")).status() == 200) {
        healthChecks.incrementAndGet();
      } else {
        seen.add("health DOWN");
      }
    }, 0, 100, TimeUnit.MILLISECONDS);

    Map<String, Boolean> jobs = new LinkedHashMap<>();
    for (int i = 0; i < JOBS; i++) {
      String id = "trickle-" + i;
      boolean bad = i % 15 == 7;
      JsonObject body = new JsonObject().put("job", id)
          .put("payload", bad ? badPayload : new JsonObject().put("sleepMs", 20));
      if (bad && badTimeoutMs != null) {
        body.put("timeoutMs", badTimeoutMs);
      }
      JsonObject admission = Http.submit(app, "jobs", body);
      assertThat(admission.getString("type")).as(id).isEqualTo("accepted");
      jobs.put(id, bad);
      Thread.sleep(EVERY_MS);
    }

    for (Map.Entry<String, Boolean> job : jobs.entrySet()) {
      JsonObject outcome = Http.get(base + "/jobs/" + job.getKey() + "?wait=true&timeoutMs=30000")
          .json();
      if (job.getValue()) {
        assertThat(outcome.getString("type")).as(job.getKey()).isEqualTo("interrupted");
        JsonObject reason = outcome.getJsonObject("reason");
        assertThat(reason.getString("kind")).isEqualTo("POISON");
        assertThat(reason.getInteger("stops")).isEqualTo(2);
      } else {
        assertThat(outcome.getString("type")).as(job.getKey() + ": " + outcome)
            .isEqualTo("completed");
      }
    }
    sampler.shutdown();
    sampler.awaitTermination(5, TimeUnit.SECONDS);

    List<String> dead = new ArrayList<>();
    JsonArray entries = Http.get(base + "/dead").json().getJsonArray("entries");
    entries.forEach(e -> dead.add(((JsonObject) e).getString("job")));
    List<String> bad = jobs.entrySet().stream().filter(Map.Entry::getValue)
        .map(Map.Entry::getKey).toList();
    assertThat(dead).containsExactlyInAnyOrderElementsOf(bad);
    synchronized (seen) {
      assertThat(seen).as("no slot retired, the pool RUNNING and healthy throughout")
          .doesNotContain("RETIRED", "health DOWN").contains("state:RUNNING")
          .noneMatch(s -> s.startsWith("state:") && !s.equals("state:RUNNING"));
    }
    assertThat(healthChecks.get()).isPositive();
    JsonObject counters = Http.get(base).json().getJsonObject("counters");
    assertThat(counters.getLong("budgetRefusals")).isZero();
    assertThat(counters.getLong("poisoned")).isEqualTo(bad.size());
    assertThat(Http.get(app.url("/health")).status()).isEqualTo(200);
  }

  /** {@code conf/config.json} as shipped, on a free loopback port. */
  private static JsonObject shippedConfig() throws IOException {
    JsonObject config = new JsonObject(Files.readString(Path.of("conf/config.json")));
    config.getJsonObject("http").put("host", "127.0.0.1").put("port", 0);
    return config;
  }
}
