package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * T3 in docs/rules.md: admissions and outcomes are separate meters, so a dashboard that sums the
 * outcomes counts every accepted job once.
 */
class CountersAddUpTest {

  private static double finished(String text, String outcome) {
    return Prometheus.value(text, "shepherd_jobs_finished_total", "pool", "jobs", "outcome",
        outcome);
  }

  private static double admitted(String text, String result) {
    return Prometheus.value(text, "shepherd_jobs_admitted_total", "pool", "jobs", "result",
        result);
  }

  @Test
  void T3_finished_outcomes_sum_to_the_accepted_admissions_once_every_job_is_answered() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 2)))) {
      for (int i = 0; i < 6; i++) {
        assertThat(Http.post(app.url("/api/pools/jobs/jobs"),
            "{\"payload\":{\"sleepMs\":5}}").status()).isEqualTo(200);
      }
      for (String payload : List.of("{\"fail\":\"no\"}", "{\"fail\":\"again\"}",
          "{\"crash\":true}")) {
        Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":" + payload + "}");
      }
      assertThat(Http.submit(app, "jobs", new JsonObject().put("job", "later")
          .put("delayMs", 600_000).put("payload", 1)).getString("type")).isEqualTo("accepted");
      assertThat(Http.submit(app, "jobs", new JsonObject().put("job", "later")
          .put("payload", 1)).getString("type")).as("a duplicate id").isEqualTo("rejected");
      assertThat(Http.delete(app.url("/api/pools/jobs/jobs/later"), null).json()
          .getBoolean("cancelled")).isTrue();

      String text = Http.get(app.url("/metrics")).body();
      double sum = 0;
      for (String outcome : List.of("completed", "failed", "interrupted", "cancelled")) {
        sum += finished(text, outcome);
      }
      assertThat(admitted(text, "accepted")).isEqualTo(10);
      assertThat(admitted(text, "rejected")).isEqualTo(1);
      assertThat(sum).as("every accepted job finished once, none counted twice").isEqualTo(10);
      assertThat(finished(text, "completed")).isEqualTo(6);
      assertThat(finished(text, "failed")).isEqualTo(2);
      assertThat(finished(text, "interrupted")).isEqualTo(1);
      assertThat(finished(text, "cancelled")).isEqualTo(1);
      assertThat(text).as("the old series that mixed both is gone")
          .doesNotContain("shepherd_jobs_total");
    }
  }
}
