package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;

/**
 * The steps of the flow-control tests over HTTP (section 11, F1-F5): admit jobs of a group at a
 * priority, look at them, at their group and at the pool, pause, resume and set groups.
 */
final class FlowHttp {
  /** A job that holds its slot until it is cancelled (the demo worker's sleep ends early). */
  static final JsonObject HOLD = new JsonObject().put("sleepMs", 120_000);

  private final WebTestApp app;
  private final String pool;

  FlowHttp(WebTestApp app, String pool) {
    this.app = app;
    this.pool = pool;
  }

  String path(String rest) {
    return app.url("/api/pools/" + pool + rest);
  }

  /** Admits {@code job} ({@code ?wait=false}) and returns the admission. */
  JsonObject admit(String job, String group, Integer priority, JsonObject payload) {
    JsonObject body = new JsonObject().put("job", job).put("payload", payload);
    if (group != null) {
      body.put("group", group);
    }
    if (priority != null) {
      body.put("priority", priority);
    }
    return Http.post(path("/jobs?wait=false"), body.encode()).json();
  }

  /** Admits {@code job} and checks it was accepted. */
  void accepted(String job, String group, Integer priority, JsonObject payload) {
    assertThat(admit(job, group, priority, payload))
        .isEqualTo(new JsonObject().put("type", "accepted").put("job", job));
  }

  JsonObject view(String job) {
    return Http.get(path("/jobs/" + job)).json();
  }

  String state(String job) {
    return view(job).getString("state");
  }

  /** Waits until {@code job} is in {@code state} and returns its view. */
  JsonObject inState(String job, String state) {
    await().atMost(15, SECONDS).until(() -> state.equals(state(job)));
    return view(job);
  }

  /** Waits for {@code job}'s outcome. */
  JsonObject outcome(String job) {
    Http.Response r = Http.get(path("/jobs/" + job + "?wait=true&timeoutMs=15000"));
    assertThat(r.json().containsKey("type")).as(r.body()).isTrue();
    return r.json();
  }

  void cancel(String job) {
    assertThat(Http.delete(path("/jobs/" + job), null).status()).isEqualTo(200);
  }

  JsonObject status() {
    return Http.get(path("")).json();
  }

  Http.Response group(String name) {
    return Http.get(path("/groups/" + name));
  }

  Http.Response put(String group, String body) {
    return Http.send(HttpRequest.newBuilder(URI.create(path("/groups/" + group)))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)));
  }

  Http.Response pause() {
    return Http.post(path("/pause"), "");
  }

  Http.Response resume() {
    return Http.post(path("/resume"), "");
  }

  /** The number of completed jobs in the pool's counters. */
  long completed() {
    return status().getJsonObject("counters").getLong("completed");
  }
}
