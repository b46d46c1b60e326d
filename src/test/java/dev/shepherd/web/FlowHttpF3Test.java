package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * F3 (docs/rules.md) through HTTP with the demo worker: {@code priority} orders a group's queued
 * jobs, 0 first, FIFO within a level; a priority out of 0-9 is refused 400 naming it.
 */
@Timeout(value = 60, unit = SECONDS)
class FlowHttpF3Test {

  @Test
  void F3_a_groups_queued_jobs_start_by_priority_then_in_order() {
    JsonObject pool = WebTestApp.demoPool("ranked", 1);
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, pool))) {
      FlowHttp flow = new FlowHttp(app, "ranked");
      flow.accepted("blocker", "g", null, FlowHttp.HOLD);
      flow.inState("blocker", "RUNNING");
      flow.accepted("low", "g", 9, FlowHttp.HOLD);
      flow.accepted("mid-1", "g", null, FlowHttp.HOLD);
      flow.accepted("mid-2", "g", 5, FlowHttp.HOLD);
      flow.accepted("high", "g", 0, FlowHttp.HOLD);

      String[] expected = {"high", "mid-1", "mid-2", "low"};
      String previous = "blocker";
      for (String next : expected) {
        flow.cancel(previous);
        flow.inState(next, "RUNNING");
        for (String later : java.util.Arrays.asList(expected)
            .subList(java.util.Arrays.asList(expected).indexOf(next) + 1, expected.length)) {
          assertThat(flow.state(later)).as(later + " while " + next + " runs").isEqualTo("QUEUED");
        }
        previous = next;
      }
      flow.cancel(previous);
    }
  }

  @Test
  void F3_a_priority_out_of_range_is_refused_400_naming_it() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("ranked", 1)))) {
      FlowHttp flow = new FlowHttp(app, "ranked");
      for (String bad : new String[] {"-1", "10", "1.5", "\"0\"", "true"}) {
        Http.Response r = Http.post(flow.path("/jobs"), "{\"payload\":1,\"priority\":" + bad + "}");
        assertThat(r.status()).as(bad).isEqualTo(400);
        assertThat(r.json().getString("error")).isEqualTo("BAD_REQUEST");
        assertThat(r.json().getString("message")).startsWith("priority:");
      }
      Http.Response group = Http.post(flow.path("/jobs"),
          "{\"payload\":1,\"group\":\"" + "g".repeat(257) + "\"}");
      assertThat(group.status()).isEqualTo(400);
      assertThat(group.json().getString("message")).startsWith("group:");
      assertThat(flow.status().getJsonObject("counters").getLong("accepted"))
          .as("bad input changes nothing").isZero();
    }
  }
}
