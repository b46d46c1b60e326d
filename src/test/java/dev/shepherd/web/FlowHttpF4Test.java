package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.FakeTime;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * F4 (docs/rules.md) through HTTP with the demo worker, on a {@link FakeTime} so that no
 * assertion depends on how fast the machine is: a rate limit of 5 per second lets 5 jobs start at
 * once and one more per 200 ms, so 15 jobs need 2 s of the pool's time, and none is rejected; a
 * handler's "rate limited for N ms" answer (the demo worker's {@code rateLimitedMs}) puts the job
 * back, holds its group for N ms while other groups run on, and costs no attempt.
 */
@Timeout(value = 60, unit = SECONDS)
class FlowHttpF4Test {

  @Test
  void F4_a_rate_limit_of_5_per_second_spreads_15_jobs_over_2_seconds() {
    FakeTime time = new FakeTime();
    JsonObject pool = WebTestApp.demoPool("paced", 4)
        .put("rateLimit", new JsonObject().put("permits", 5).put("perMs", 1000));
    try (WebTestApp app = WebTestApp.startWithTime(WebTestApp.config(null, pool), time)) {
      FlowHttp flow = new FlowHttp(app, "paced");
      for (int i = 0; i < 15; i++) {
        flow.accepted("j" + i, null, null, new JsonObject().put("echo", i));
      }
      await().atMost(15, SECONDS).until(() -> flow.completed() == 5);

      List<Long> completedAt = new ArrayList<>();
      for (long elapsed = 100; elapsed <= 2_000; elapsed += 100) {
        time.advance(100);
        long allowed = 5 + elapsed * 5 / 1000;
        long expected = Math.min(15, allowed);
        await().atMost(15, SECONDS).until(() -> flow.completed() >= expected);
        long done = flow.completed();
        assertThat(done).as("completed by %d ms: never more starts than tokens", elapsed)
            .isLessThanOrEqualTo(allowed);
        completedAt.add(done);
      }
      assertThat(completedAt.get(completedAt.size() - 2)).as("at 1.9 s one job still waits")
          .isEqualTo(14);
      assertThat(flow.completed()).isEqualTo(15);
      assertThat(flow.status().getJsonObject("counters").getLong("rejected")).isZero();
    }
  }

  @Test
  void F4_a_429_answer_holds_its_group_for_that_long_and_costs_no_attempt() {
    FakeTime time = new FakeTime();
    JsonObject pool = WebTestApp.demoPool("downstream", 2);
    try (WebTestApp app = WebTestApp.startWithTime(WebTestApp.config(null, pool), time)) {
      FlowHttp flow = new FlowHttp(app, "downstream");
      flow.accepted("limited", "api", null, new JsonObject().put("rateLimitedMs", 1_000));
      await().atMost(15, SECONDS).until(() -> flow.group("api").json().getValue("heldUntil")
          != null);
      JsonObject held = flow.group("api").json();
      assertThat(held.getLong("heldUntil")).as("wall time, 1 s after the answer")
          .isEqualTo(FakeTime.WALL_START + 1_000);
      assertThat(flow.state("limited")).isEqualTo("QUEUED");
      flow.accepted("same-group", "api", null, new JsonObject());

      flow.accepted("elsewhere", "mail", null, new JsonObject());
      assertThat(flow.outcome("elsewhere").getString("type")).isEqualTo("completed");
      assertThat(flow.state("same-group")).as("its group is held").isEqualTo("QUEUED");

      time.advance(1_000);
      JsonObject outcome = flow.outcome("limited");
      assertThat(outcome.getString("type")).isEqualTo("completed");
      assertThat(outcome.getInteger("attempts")).as("the rate-limited run is no attempt")
          .isEqualTo(1);
      assertThat(flow.outcome("same-group").getString("type")).isEqualTo("completed");
      JsonObject counters = flow.status().getJsonObject("counters");
      assertThat(counters.getLong("failed")).isZero();
      assertThat(counters.getLong("retried")).isZero();
      assertThat(counters.getLong("restarts")).isZero();
    }
  }
}
