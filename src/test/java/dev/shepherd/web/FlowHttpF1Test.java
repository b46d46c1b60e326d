package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * F1 (docs/rules.md) through HTTP with the demo worker: a group's {@code concurrency} caps its
 * running jobs without holding back other groups, its {@code queueCapacity} answers {@code
 * rejected(GROUP_FULL)} (429, as a full backlog), and the status and {@code GET …/groups/<group>}
 * show the group's load and limits.
 */
@Timeout(value = 60, unit = SECONDS)
class FlowHttpF1Test {

  private static JsonObject pool() {
    return WebTestApp.demoPool("tenants", 4).put("groups", new JsonObject()
        .put("overrides", new JsonObject()
            .put("capped", new JsonObject().put("concurrency", 1))
            .put("small", new JsonObject().put("concurrency", 1).put("queueCapacity", 1))));
  }

  @Test
  void F1_a_capped_group_runs_one_at_a_time_and_does_not_hold_back_another_group() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, pool()))) {
      FlowHttp flow = new FlowHttp(app, "tenants");
      flow.accepted("c1", "capped", null, FlowHttp.HOLD);
      flow.accepted("c2", "capped", null, FlowHttp.HOLD);
      flow.accepted("c3", "capped", null, FlowHttp.HOLD);
      flow.inState("c1", "RUNNING");

      flow.accepted("free", "other", null, new JsonObject().put("echo", "through"));
      JsonObject outcome = flow.outcome("free");

      assertThat(outcome.getString("type")).isEqualTo("completed");
      assertThat(flow.state("c2")).isEqualTo("QUEUED");
      assertThat(flow.state("c3")).isEqualTo("QUEUED");
      JsonObject capped = flow.group("capped").json();
      assertThat(capped.getInteger("running")).isEqualTo(1);
      assertThat(capped.getInteger("queued")).isEqualTo(2);
      assertThat(capped.getInteger("concurrency")).isEqualTo(1);
      JsonObject status = flow.status();
      assertThat(status.getInteger("groupCount")).isGreaterThanOrEqualTo(2);
      assertThat(status.getJsonArray("groups").getJsonObject(0).getString("name"))
          .as("the busiest group first").isEqualTo("capped");

      flow.cancel("c1");
      flow.inState("c2", "RUNNING");
      assertThat(flow.state("c3")).isEqualTo("QUEUED");
      flow.cancel("c2");
      flow.cancel("c3");
    }
  }

  @Test
  void F1_a_group_at_its_queueCapacity_is_rejected_GROUP_FULL_with_429() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, pool()))) {
      FlowHttp flow = new FlowHttp(app, "tenants");
      flow.accepted("s1", "small", null, FlowHttp.HOLD);
      flow.inState("s1", "RUNNING");
      flow.accepted("s2", "small", null, FlowHttp.HOLD);

      Http.Response full = Http.post(flow.path("/jobs"),
          "{\"job\":\"s3\",\"group\":\"small\",\"payload\":{}}");

      assertThat(full.status()).isEqualTo(429);
      assertThat(full.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(full.json().getString("type")).isEqualTo("rejected");
      assertThat(full.json().getString("reason")).isEqualTo("GROUP_FULL");
      assertThat(flow.admit("other", "another", null, new JsonObject()).getString("type"))
          .as("other groups are not full").isEqualTo("accepted");
      flow.cancel("s1");
      flow.cancel("s2");
    }
  }

  @Test
  void F1_an_operator_caps_a_group_at_run_time_and_lifts_the_cap_again() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, pool()))) {
      FlowHttp flow = new FlowHttp(app, "tenants");
      Http.Response set = flow.put("t9", "{\"concurrency\":1}");
      assertThat(set.status()).as(set.body()).isEqualTo(200);
      assertThat(set.json().getInteger("concurrency")).isEqualTo(1);

      flow.accepted("t1", "t9", null, FlowHttp.HOLD);
      flow.accepted("t2", "t9", null, FlowHttp.HOLD);
      flow.inState("t1", "RUNNING");
      assertThat(flow.state("t2")).isEqualTo("QUEUED");

      Http.Response lifted = flow.put("t9", "{\"concurrency\":0}");
      assertThat(lifted.json().getInteger("concurrency")).isZero();
      flow.inState("t2", "RUNNING");
      flow.cancel("t1");
      flow.cancel("t2");
    }
  }
}
