package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * F2 (docs/rules.md) through HTTP with the demo worker: on one slot, two groups with queued jobs
 * take starts in proportion to their weights (2:1), FIFO within each group. Each start is read
 * from the slot's assignment, then cancelled to let the next one start.
 */
@Timeout(value = 90, unit = SECONDS)
class FlowHttpF2Test {

  private static String running(FlowHttp flow) {
    JsonArray assignments = flow.status().getJsonArray("slots").getJsonObject(0)
        .getJsonArray("assignments");
    return assignments.isEmpty() ? null : assignments.getJsonObject(0).getString("job");
  }

  @Test
  void F2_groups_of_weight_2_and_1_get_starts_two_to_one_fifo_within_each() {
    JsonObject pool = WebTestApp.demoPool("fair", 1).put("groups", new JsonObject()
        .put("overrides", new JsonObject().put("heavy", new JsonObject().put("weight", 2))));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, pool))) {
      FlowHttp flow = new FlowHttp(app, "fair");
      flow.pause();
      for (int i = 0; i < 8; i++) {
        flow.accepted("heavy-" + i, "heavy", null, FlowHttp.HOLD);
        flow.accepted("light-" + i, "light", null, FlowHttp.HOLD);
      }
      flow.resume();

      StringBuilder order = new StringBuilder();
      int heavy = 0;
      int light = 0;
      for (int start = 0; start < 9; start++) {
        String[] job = new String[1];
        await().atMost(15, SECONDS).until(() -> (job[0] = running(flow)) != null);
        if (job[0].startsWith("heavy-")) {
          assertThat(job[0]).as("FIFO within heavy").isEqualTo("heavy-" + heavy++);
        } else {
          assertThat(job[0]).as("FIFO within light").isEqualTo("light-" + light++);
        }
        order.append(job[0].charAt(0));
        flow.cancel(job[0]);
        String done = job[0];
        await().atMost(15, SECONDS).until(() -> !done.equals(running(flow)));
      }
      assertThat(heavy).as("starts of heavy in %s", order).isBetween(5, 7);
      assertThat(light).as("starts of light in %s", order).isBetween(2, 4);
      for (int i = heavy; i < 8; i++) {
        flow.cancel("heavy-" + i);
      }
      for (int i = light; i < 8; i++) {
        flow.cancel("light-" + i);
      }
    }
  }
}
