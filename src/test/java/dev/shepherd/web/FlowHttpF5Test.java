package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * F5 (docs/rules.md) through HTTP with the demo worker: a paused pool accepts submits and runs
 * none of them, shows since when it is paused, and runs them once resumed; a paused group holds
 * only its own jobs; a pool with {@code rejectWhenPaused} answers {@code rejected(PAUSED)} (409);
 * pause and resume pass the token check like every change.
 */
@Timeout(value = 60, unit = SECONDS)
class FlowHttpF5Test {

  @Test
  void F5_a_paused_pool_accepts_and_does_not_run_then_resume_runs() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("held", 2)))) {
      FlowHttp flow = new FlowHttp(app, "held");
      long before = System.currentTimeMillis();
      Http.Response paused = flow.pause();
      assertThat(paused.status()).as(paused.body()).isEqualTo(200);
      assertThat(paused.json().getBoolean("paused")).isTrue();
      long since = paused.json().getLong("pausedSince");
      assertThat(since).as("wall time").isBetween(before - 1000, System.currentTimeMillis() + 1000);

      flow.accepted("j1", null, null, new JsonObject().put("echo", 1));
      flow.accepted("j2", "g", null, new JsonObject().put("echo", 2));

      assertThat(flow.state("j1")).isEqualTo("QUEUED");
      assertThat(flow.state("j2")).isEqualTo("QUEUED");
      JsonObject status = flow.status();
      assertThat(status.getBoolean("paused")).isTrue();
      assertThat(status.getLong("pausedSince")).isEqualTo(since);
      assertThat(flow.pause().json().getLong("pausedSince")).as("a second pause changes nothing")
          .isEqualTo(since);

      Http.Response resumed = flow.resume();
      assertThat(resumed.json().getBoolean("paused")).isFalse();
      assertThat(flow.outcome("j1").getString("type")).isEqualTo("completed");
      assertThat(flow.outcome("j2").getString("type")).isEqualTo("completed");
      assertThat(flow.status().getValue("pausedSince")).isNull();
    }
  }

  @Test
  void F5_a_paused_group_holds_its_jobs_and_no_one_elses() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("held", 2)))) {
      FlowHttp flow = new FlowHttp(app, "held");
      Http.Response set = flow.put("quiet", "{\"paused\":true}");
      assertThat(set.json().getBoolean("paused")).isTrue();
      assertThat(set.json().getLong("pausedSince")).isNotNull();

      flow.accepted("q1", "quiet", null, new JsonObject());
      assertThat(flow.outcome(flowAdmit(flow, "o1", "loud")).getString("type"))
          .isEqualTo("completed");
      assertThat(flow.state("q1")).isEqualTo("QUEUED");

      assertThat(flow.put("quiet", "{\"paused\":false}").json().getBoolean("paused")).isFalse();
      assertThat(flow.outcome("q1").getString("type")).isEqualTo("completed");
    }
  }

  private static String flowAdmit(FlowHttp flow, String job, String group) {
    flow.accepted(job, group, null, new JsonObject());
    return job;
  }

  @Test
  void F5_a_pool_that_says_so_rejects_submits_while_paused_with_409() {
    JsonObject pool = WebTestApp.demoPool("strict", 1).put("rejectWhenPaused", true);
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, pool))) {
      FlowHttp flow = new FlowHttp(app, "strict");
      flow.pause();
      Http.Response r = Http.post(flow.path("/jobs"), "{\"job\":\"x\",\"payload\":{\"a\":1}}");
      assertThat(r.status()).isEqualTo(409);
      assertThat(r.json().getString("reason")).isEqualTo("PAUSED");
      assertThat(r.json().getJsonObject("payload")).isEqualTo(new JsonObject().put("a", 1));
      flow.resume();
      assertThat(Http.post(flow.path("/jobs"), "{\"payload\":1}").status()).isEqualTo(200);
    }
  }

  @Test
  void F5_pause_and_resume_need_the_token_and_a_page_of_this_origin() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("token", "op"), WebTestApp.demoPool("guarded", 1)))) {
      FlowHttp flow = new FlowHttp(app, "guarded");
      assertThat(flow.pause().status()).isEqualTo(401);
      assertThat(flow.put("g", "{\"paused\":true}").status()).isEqualTo(401);
      assertThat(Http.post(flow.path("/pause"), "", "Bearer op").status()).isEqualTo(200);
      HttpRequest.Builder foreign = HttpRequest.newBuilder(URI.create(flow.path("/resume")))
          .header("Origin", "http://evil.example").header("Authorization", "Bearer op")
          .POST(HttpRequest.BodyPublishers.noBody());
      assertThat(Http.send(foreign).status()).isEqualTo(403);
      assertThat(flow.group("g").status()).as("reads need no token").isEqualTo(200);
      assertThat(Http.post(flow.path("/resume"), "{}", "Bearer op").json().getBoolean("paused"))
          .isFalse();
    }
  }
}
