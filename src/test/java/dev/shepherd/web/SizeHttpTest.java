package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code PUT /api/pools/<name>/size} in the running application with the demo worker (F6 in
 * docs/rules.md): a grow adds slots that serve jobs, a shrink drains slots whose running jobs
 * finish before they leave the status, and bad input is refused naming the field and changes
 * nothing.
 */
class SizeHttpTest {

  private static JsonObject status(WebTestApp app, String pool) {
    return Http.get(app.url("/api/pools/" + pool)).json();
  }

  private static List<String> slots(JsonObject status, String phase) {
    List<String> ids = new ArrayList<>();
    for (Object o : status.getJsonArray("slots")) {
      JsonObject slot = (JsonObject) o;
      if (phase == null || phase.equals(slot.getString("phase"))) {
        ids.add(slot.getString("id"));
      }
    }
    return ids;
  }

  private static Http.Response put(WebTestApp app, String pool, String body) {
    return Http.send(HttpRequest.newBuilder(URI.create(app.url("/api/pools/" + pool + "/size")))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)));
  }

  @Test
  void F6_a_grow_adds_slots_that_serve_and_a_shrink_lets_running_jobs_finish_before_slots_leave() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("elastic", 1)))) {
      await().atMost(10, SECONDS).until(() -> slots(status(app, "elastic"), "IDLE").size() == 1);

      Http.Response grow = put(app, "elastic", "{\"instances\": 3}");
      assertThat(grow.status()).as(grow.body()).isEqualTo(200);
      assertThat(grow.json()).isEqualTo(new JsonObject().put("instances", 3)
          .put("maxConcurrency", 1));
      await().atMost(10, SECONDS).until(() -> slots(status(app, "elastic"), "IDLE")
          .equals(List.of("w-0", "w-1", "w-2")));
      assertThat(status(app, "elastic").getJsonObject("size"))
          .isEqualTo(new JsonObject().put("instances", 3).put("maxConcurrency", 1));

      // Three jobs that hold their slots: the new slots serve them.
      List<String> jobs = List.of("long-0", "long-1", "long-2");
      for (String job : jobs) {
        Http.Response accepted = Http.post(app.url("/api/pools/elastic/jobs?wait=false"),
            new JsonObject().put("job", job).put("payload", new JsonObject().put("sleepMs", 1_500))
                .encode());
        assertThat(accepted.json().getString("type")).isEqualTo("accepted");
      }
      await().atMost(10, SECONDS).until(() -> slots(status(app, "elastic"), "ASSIGNED").size()
          == 3);

      Http.Response shrink = put(app, "elastic", "{\"instances\": 1, \"maxConcurrency\": 2}");
      assertThat(shrink.status()).as(shrink.body()).isEqualTo(200);
      JsonObject draining = status(app, "elastic");
      assertThat(slots(draining, "DRAINING")).containsExactly("w-1", "w-2");
      assertThat(draining.getJsonObject("size"))
          .isEqualTo(new JsonObject().put("instances", 1).put("maxConcurrency", 2));

      List<String> workers = new ArrayList<>();
      for (String job : jobs) {
        JsonObject outcome = Http.get(app.url("/api/pools/elastic/jobs/" + job + "?wait=true"))
            .json();
        assertThat(outcome.getString("type")).as(outcome.encode()).isEqualTo("completed");
        workers.add(outcome.getString("worker"));
      }
      assertThat(workers).containsExactlyInAnyOrder("w-0", "w-1", "w-2");
      await().atMost(10, SECONDS).until(() -> slots(status(app, "elastic"), null)
          .equals(List.of("w-0")));
      JsonObject after = status(app, "elastic");
      assertThat(after.getJsonObject("counters").getLong("restarts")).isZero();
      assertThat(after.getJsonObject("budget").getInteger("restartsInWindow")).isZero();
      assertThat(after.getJsonArray("slots").getJsonObject(0).getInteger("capacity"))
          .isEqualTo(2);

      // The pool still serves, and a grow brings w-1 back with its next incarnation.
      assertThat(Http.post(app.url("/api/pools/elastic/jobs"), new JsonObject().put("payload",
          new JsonObject().put("echo", "after")).encode()).json().getString("type"))
          .isEqualTo("completed");
      assertThat(put(app, "elastic", "{\"instances\": 2}").status()).isEqualTo(200);
      await().atMost(10, SECONDS).until(() -> slots(status(app, "elastic"), "IDLE")
          .equals(List.of("w-0", "w-1")));
      assertThat(status(app, "elastic").getJsonArray("slots").getJsonObject(1)
          .getInteger("incarnation")).isEqualTo(2);
    }
  }

  @Test
  void F6_malformed_sizes_are_refused_naming_the_field_and_change_nothing() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("steady", 2)))) {
      await().atMost(10, SECONDS).until(() -> slots(status(app, "steady"), "IDLE").size() == 2);
      JsonObject before = status(app, "steady");
      String[][] cases = {
          {"", "body"},
          {"not json", "body"},
          {"[3]", "body"},
          {"3", "body"},
          {"{}", "instances"},
          {"{\"instances\": null, \"maxConcurrency\": null}", "instances"},
          {"{\"instances\": \"3\"}", "instances"},
          {"{\"instances\": 2.5}", "instances"},
          {"{\"instances\": -1}", "instances"},
          {"{\"instances\": 0}", "instances"},
          {"{\"instances\": 10001}", "instances"},
          {"{\"instances\": 99999999999999999999}", "instances"},
          {"{\"instances\": [2]}", "instances"},
          {"{\"maxConcurrency\": 0}", "maxConcurrency"},
          {"{\"maxConcurrency\": 1000001}", "maxConcurrency"},
          {"{\"maxConcurrency\": true}", "maxConcurrency"},
          {"{\"instances\": 3, \"maxConcurrency\": {}}", "maxConcurrency"},
          {"{\"instances\": 3, \"workers\": 3}", "workers"},
      };
      for (String[] c : cases) {
        Http.Response r = put(app, "steady", c[0]);
        assertThat(r.status()).as(c[0] + " -> " + r.body()).isEqualTo(400);
        assertThat(r.json().getString("error")).isEqualTo("BAD_REQUEST");
        assertThat(r.json().getString("message")).as(c[0]).startsWith(c[1]);
      }
      assertThat(status(app, "steady")).isEqualTo(before);
      Http.Response unknown = put(app, "nowhere", "{\"instances\": 3}");
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(unknown.json().getString("error")).isEqualTo("UNKNOWN_POOL");
    }
  }
}
