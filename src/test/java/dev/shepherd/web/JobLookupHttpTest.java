package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.Retention;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.JobsFixture;
import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code GET /api/pools/<name>/jobs/<job>} (J6), for a pool served where it is coordinated
 * ({@code local}) and from a node that reaches it over the bus ({@code bus}): a job is found
 * QUEUED (position), WAITING (due time), RUNNING (slot, attempt), ANSWERED (outcome) and is 404
 * once forgotten; {@code ?wait=true} gives a {@code wait=false} submitter the outcome with a
 * waiting submit's body and status, or the view with {@code "waited": true} when its {@code
 * timeoutMs} pass first. Malformed requests are in {@link MalformedInputTest}.
 */
@Timeout(value = 90, unit = SECONDS)
class JobLookupHttpTest {

  private static JsonObject admit(JobsWebApp app, String job, JsonObject payload) {
    Http.Response r = Http.post(app.url("/api/pools/p/jobs?wait=false"),
        new JsonObject().put("job", job).put("payload", payload).encode());
    assertThat(r.json()).isEqualTo(new JsonObject().put("type", "accepted").put("job", job));
    return r.json();
  }

  private static JsonObject view(JobsWebApp app, String job) {
    return Http.get(app.url("/api/pools/p/jobs/" + job)).json();
  }

  private static JsonObject inState(JobsWebApp app, String job, String state) {
    await().atMost(10, SECONDS).until(() -> state.equals(view(app, job).getString("state")));
    return view(app, job);
  }

  @Nested
  class States {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_lookup_finds_a_job_running_queued_answered_and_then_forgotten(String via) {
      JobsWebApp app = JobsWebApp.start(via,
          JobsFixture.quick().withRecentOutcomes(new Retention(1, 1L << 20)),
          PoolFixture.demoPool("p", 1));
      try (app) {
        admit(app, "run-1", new JsonObject().put("sleepMs", 600));
        JsonObject running = inState(app, "run-1", "RUNNING");
        admit(app, "q-1", new JsonObject().put("echo", 1));
        admit(app, "q-2", new JsonObject().put("echo", 2));

        JsonObject queued = view(app, "q-2");
        Http.Response done = Http.get(app.url("/api/pools/p/jobs/q-2?wait=true&timeoutMs=10000"));
        JsonObject answered = view(app, "q-2");
        Http.Response forgotten = Http.get(app.url("/api/pools/p/jobs/q-1"));
        Http.Response never = Http.get(app.url("/api/pools/p/jobs/never-seen"));

        assertThat(running).isEqualTo(new JsonObject().put("job", "run-1").put("state", "RUNNING")
            .put("worker", "w-0").put("attempts", 1));
        assertThat(queued.getString("state")).isEqualTo("QUEUED");
        assertThat(queued.getInteger("position")).isEqualTo(1);
        assertThat(queued.containsKey("worker")).isFalse();
        assertThat(done.status()).as(done.body()).isEqualTo(200);
        assertThat(answered.getString("state")).isEqualTo("ANSWERED");
        assertThat(answered.getJsonObject("outcome")).isEqualTo(done.json());
        assertThat(answered.getLong("at")).isPositive();
        assertThat(answered.containsKey("deadLetter")).isFalse();
        for (Http.Response gone : new Http.Response[] {forgotten, never}) {
          assertThat(gone.status()).as(gone.body()).isEqualTo(404);
          assertThat(gone.json().getString("error")).isEqualTo("UNKNOWN_JOB");
        }
        assertThat(forgotten.json().getString("message")).contains("'q-1'");
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_job_waiting_out_its_retry_delay_shows_when_it_is_due(String via) {
      JobsWebApp app = JobsWebApp.start(via,
          JobsFixture.quick().withRetryBackoff(new Backoff(60_000, 1.0, 60_000, 0)),
          JobsFixture.retryingPool("p", 1));
      try (app) {
        long before = System.currentTimeMillis();
        admit(app, "suspect", new JsonObject().put("crash", true));

        JsonObject waiting = inState(app, "suspect", "WAITING");

        assertThat(waiting.getLong("dueAt")).isBetween(before + 60_000,
            System.currentTimeMillis() + 60_000);
        assertThat(waiting.fieldNames()).containsExactlyInAnyOrder("job", "state", "dueAt",
            "attempts");
        Http.delete(app.url("/api/pools/p/jobs/suspect"), null);
      }
    }
  }

  @Nested
  class Waiting {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_wait_false_submitter_collects_the_outcome_as_a_waiting_submit_gets_it(String via) {
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(),
          JobsFixture.retryingPool("p", 1))) {
        Http.Response waited = Http.post(app.url("/api/pools/p/jobs"),
            "{\"job\":\"direct\",\"payload\":{\"sleepMs\":200,\"echo\":\"x\"}}");
        admit(app, "later", new JsonObject().put("sleepMs", 200).put("echo", "x"));
        admit(app, "doomed", new JsonObject().put("crash", true));

        Http.Response collected = Http.get(app.url("/api/pools/p/jobs/later?wait=true"));
        Http.Response again = Http.get(app.url("/api/pools/p/jobs/later?wait=true&timeoutMs=1"));
        Http.Response poisoned = Http.get(app.url("/api/pools/p/jobs/doomed?wait=true"));

        assertThat(collected.status()).as(collected.body()).isEqualTo(waited.status())
            .isEqualTo(200);
        assertThat(collected.json().copy().put("job", "direct")).isEqualTo(waited.json());
        assertThat(again.json()).as("an answered job's outcome comes at once")
            .isEqualTo(collected.json());
        assertThat(poisoned.status()).as(poisoned.body()).isEqualTo(503);
        assertThat(poisoned.json().getString("type")).isEqualTo("interrupted");
        assertThat(poisoned.json().getJsonObject("reason").getString("kind")).isEqualTo("POISON");
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_a_wait_whose_time_passes_first_answers_the_view_marked_waited(String via) {
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(),
          PoolFixture.demoPool("p", 1))) {
        admit(app, "slow", new JsonObject().put("sleepMs", 5_000));
        inState(app, "slow", "RUNNING");

        Http.Response r = Http.get(app.url("/api/pools/p/jobs/slow?wait=true&timeoutMs=100"));

        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json()).isEqualTo(new JsonObject().put("job", "slow").put("state", "RUNNING")
            .put("worker", "w-0").put("attempts", 1).put("waited", true));
        Http.delete(app.url("/api/pools/p/jobs/slow"), null);
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J6_head_is_served_where_get_is(String via) {
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(),
          PoolFixture.demoPool("p", 1))) {
        Http.post(app.url("/api/pools/p/jobs"), "{\"job\":\"j\",\"payload\":{\"echo\":1}}");

        Http.Response known = head(app.url("/api/pools/p/jobs/j"));
        Http.Response unknown = head(app.url("/api/pools/p/jobs/nope"));

        assertThat(known.status()).isEqualTo(200);
        assertThat(known.body()).isEmpty();
        assertThat(known.headers().firstValue("Content-Type")).hasValueSatisfying(t ->
            assertThat(t).startsWith("application/json"));
        assertThat(unknown.status()).isEqualTo(404);
      }
    }
  }

  @Test
  void J6_a_pool_holding_as_many_waiters_as_it_allows_is_429_with_retry_after() {
    try (JobsWebApp app = JobsWebApp.start("local", JobsFixture.quick())) {
      // A stand-in for a remote pool that refuses every wait as a crowded coordinator does.
      app.vertx().eventBus().consumer("crowded.job", m -> m.fail(429,
          "TOO_MANY_WAITERS: job 'j' already has 100 waiters; try again later"));
      app.vertx().eventBus().consumer("odd.job", m -> m.reply(new JsonObject().put("no", 1)));
      app.put(new BusPoolHandle(app.vertx(), "crowded", new Addresses("crowded"), "node-x",
          1_000, 1_000));
      app.put(new BusPoolHandle(app.vertx(), "odd", new Addresses("odd"), "node-x", 1_000,
          1_000));

      Http.Response crowded = Http.get(app.url("/api/pools/crowded/jobs/j?wait=true"));
      Http.Response odd = Http.get(app.url("/api/pools/odd/jobs/j"));

      assertThat(crowded.status()).as(crowded.body()).isEqualTo(429);
      assertThat(crowded.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(crowded.json().getString("error")).isEqualTo("TOO_MANY_WAITERS");
      assertThat(odd.status()).as(odd.body()).isEqualTo(502);
      assertThat(odd.json().getString("error")).isEqualTo("POOL_UNREACHABLE");
      assertThat(odd.json().getString("message")).contains("state");
    }
  }

  private static Http.Response head(String url) {
    return Http.send(HttpRequest.newBuilder(URI.create(url))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
  }
}
