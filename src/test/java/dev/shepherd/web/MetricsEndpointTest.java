package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.app.Main;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** {@code GET /metrics}: Prometheus text with Vert.x's meters and the pools' own. */
class MetricsEndpointTest {

  private static String scrape(WebTestApp app) {
    Http.Response r = Http.get(app.url("/metrics"));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    return r.body();
  }

  private static double jobs(String text, String outcome) {
    return Prometheus.value(text, "shepherd_jobs_finished_total", "pool", "jobs", "outcome",
        outcome);
  }

  private static double admitted(String text, String result) {
    return Prometheus.value(text, "shepherd_jobs_admitted_total", "pool", "jobs", "result",
        result);
  }

  @Test
  void pool_meters_move_with_the_work() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 2)))) {
      String before = scrape(app);
      assertThat(jobs(before, "completed")).isZero();
      assertThat(Prometheus.value(before, "shepherd_backlog_capacity", "pool", "jobs"))
          .isEqualTo(1000);
      assertThat(before).as("Vert.x's own meters are there too").contains("vertx_");

      for (int i = 0; i < 5; i++) {
        assertThat(Http.post(app.url("/api/pools/jobs/jobs"),
            "{\"payload\":{\"sleepMs\":20}}").status()).isEqualTo(200);
      }
      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"fail\":\"no\"}}");
      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"crash\":true}}");
      Http.submit(app, "jobs", new JsonObject().put("job", "d").put("payload",
          new JsonObject().put("sleepMs", 300)));
      Http.submit(app, "jobs", new JsonObject().put("job", "d").put("payload", 1));

      String after = scrape(app);
      assertThat(jobs(after, "completed")).isEqualTo(5);
      assertThat(jobs(after, "failed")).isEqualTo(1);
      assertThat(jobs(after, "interrupted")).isEqualTo(1);
      assertThat(admitted(after, "rejected")).isEqualTo(1);
      assertThat(admitted(after, "accepted")).isEqualTo(8);
      assertThat(Prometheus.value(after, "shepherd_restarts_total", "pool", "jobs")).isEqualTo(1);
      assertThat(Prometheus.value(after, "shepherd_queue_wait_seconds_count", "pool", "jobs"))
          .isEqualTo(8);
      assertThat(Prometheus.value(after, "shepherd_run_time_seconds_count", "pool", "jobs"))
          .isGreaterThanOrEqualTo(6);
      assertThat(Prometheus.value(after, "shepherd_run_time_seconds_sum", "pool", "jobs"))
          .as("five jobs slept 20 ms each").isGreaterThanOrEqualTo(0.1);
      assertThat(Prometheus.value(after, "shepherd_queue_wait_seconds_bucket", "pool", "jobs",
          "le", "+Inf")).isEqualTo(8);
      await().atMost(10, SECONDS).until(() ->
          Prometheus.value(scrape(app), "shepherd_slots", "pool", "jobs", "phase", "IDLE") == 2);
    }
  }

  @Test
  void backlog_gauge_and_queue_wait_follow_a_queue() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1)))) {
      for (int i = 0; i < 4; i++) {
        Http.submit(app, "jobs", new JsonObject().put("payload",
            new JsonObject().put("sleepMs", 250)));
      }
      String busy = scrape(app);
      assertThat(Prometheus.value(busy, "shepherd_backlog_length", "pool", "jobs")).isEqualTo(3);
      assertThat(Prometheus.value(busy, "shepherd_slots", "pool", "jobs", "phase", "ASSIGNED"))
          .isEqualTo(1);
      await().atMost(10, SECONDS).until(() ->
          jobs(scrape(app), "completed") == 4);
      String done = scrape(app);
      assertThat(Prometheus.value(done, "shepherd_backlog_length", "pool", "jobs")).isZero();
      assertThat(Prometheus.value(done, "shepherd_queue_wait_seconds_max", "pool", "jobs"))
          .as("the last job waited for three others of 250 ms").isGreaterThanOrEqualTo(0.5);
    }
  }

  @Test
  void budget_refusals_and_retired_slots_are_counted() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 2).put("supervision",
            new JsonObject().put("maxRestarts", 0))))) {
      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{\"crash\":true}}");
      String text = scrape(app);
      assertThat(Prometheus.value(text, "shepherd_budget_refusals_total", "pool", "jobs"))
          .isEqualTo(1);
      assertThat(Prometheus.value(text, "shepherd_slots", "pool", "jobs", "phase", "RETIRED"))
          .isEqualTo(1);
      assertThat(Prometheus.value(text, "shepherd_restarts_total", "pool", "jobs")).isZero();
      assertThat(Prometheus.value(text, "shepherd_restart_budget_max", "pool", "jobs")).isZero();
    }
  }

  @Test
  void the_launcher_starts_vertx_with_micrometer_prometheus_metrics() {
    Vertx vertx = new Main().createVertxBuilder(new VertxOptions()).build();
    try {
      assertThat(vertx.isMetricsEnabled()).isTrue();
      assertThat(Metrics.prometheusRegistry(vertx)).isNotNull();
    } finally {
      vertx.close();
    }
  }

  @Test
  void without_vertx_metrics_the_pools_meters_are_still_served() {
    try (WebTestApp app = WebTestApp.startWithoutMetrics(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1)))) {
      Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":{}}");
      String text = scrape(app);
      assertThat(jobs(text, "completed")).isEqualTo(1);
      assertThat(text).doesNotContain("vertx_");
    }
  }
}
