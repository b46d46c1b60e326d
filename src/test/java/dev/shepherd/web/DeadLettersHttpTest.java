package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.JobSettings;
import dev.shepherd.core.Retention;
import dev.shepherd.runtime.JobsFixture;
import dev.shepherd.testworkers.EarlyIncarnationsCrashWorker;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dead-letter set over HTTP (J5), for a pool served where it is coordinated ({@code local})
 * and from a node that reaches it over the bus ({@code bus}): a job that crashes its worker twice
 * is answered POISON and listed by {@code GET /dead}, read by {@code GET /dead/<job>}, replayed
 * ({@code accepted}, then found by lookup) or discarded (404 after); a replay into a full backlog
 * is 429; the gauge and counters follow. Malformed requests are in {@link MalformedInputTest}.
 */
@Timeout(value = 90, unit = SECONDS)
class DeadLettersHttpTest {

  /** One slot, RETRY, suspects retried after 20 ms: a crashing job is poisoned at once. */
  private static JsonObject pool(String name) {
    return JobsFixture.retryingPool(name, 1);
  }

  private static JsonObject poisoned(JobsWebApp app, String job) {
    Http.Response r = Http.post(app.url("/api/pools/p/jobs"),
        new JsonObject().put("job", job).put("payload", new JsonObject().put("crash", true))
            .encode());
    assertThat(r.status()).as(r.body()).isEqualTo(503);
    assertThat(r.json().getJsonObject("reason").getString("kind")).isEqualTo("POISON");
    return r.json();
  }

  private static Http.Response head(String url) {
    return Http.send(HttpRequest.newBuilder(URI.create(url))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
  }

  private static Http.Response replay(JobsWebApp app, String job) {
    return Http.post(app.url("/api/pools/p/dead/" + job + "/replay"), "");
  }

  @Nested
  class Listing {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_job_that_crashes_its_worker_twice_is_listed_and_read(String via) {
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(), pool("p"))) {
        JsonObject answer = poisoned(app, "bad-1");
        poisoned(app, "bad-2");

        Http.Response list = Http.get(app.url("/api/pools/p/dead"));
        Http.Response one = Http.get(app.url("/api/pools/p/dead/bad-1"));
        Http.Response paged = Http.get(app.url("/api/pools/p/dead?offset=1&limit=1"));
        Http.Response lookup = Http.get(app.url("/api/pools/p/jobs/bad-1"));

        assertThat(list.status()).as(list.body()).isEqualTo(200);
        JsonObject page = list.json();
        assertThat(page.fieldNames()).containsExactlyInAnyOrder("pool", "size", "evicted",
            "offset", "limit", "entries");
        assertThat(page.getString("pool")).isEqualTo("p");
        assertThat(page.getInteger("size")).isEqualTo(2);
        assertThat(page.getInteger("evicted")).isZero();
        assertThat(page.getInteger("offset")).isZero();
        assertThat(page.getInteger("limit")).isEqualTo(50);
        JsonArray entries = page.getJsonArray("entries");
        assertThat(entries.stream().map(e -> ((JsonObject) e).getString("job")))
            .containsExactly("bad-2", "bad-1");
        assertThat(one.status()).isEqualTo(200);
        JsonObject entry = one.json();
        assertThat(entry).isEqualTo(entries.getJsonObject(1));
        assertThat(entry.getString("reason")).isEqualTo("POISON");
        assertThat(entry.getJsonObject("payload")).isEqualTo(new JsonObject().put("crash", true));
        assertThat(entry.getJsonObject("answer")).isEqualTo(answer);
        assertThat(entry.getJsonArray("attempts")).hasSize(2);
        assertThat(entry.getJsonArray("attempts").getJsonObject(1).getString("ended"))
            .isEqualTo("CRASH");
        assertThat(paged.json().getJsonArray("entries")).hasSize(1);
        assertThat(paged.json().getJsonArray("entries").getJsonObject(0).getString("job"))
            .isEqualTo("bad-1");
        assertThat(lookup.json().getString("state")).isEqualTo("DEAD");
        assertThat(lookup.json().getJsonObject("deadLetter")).isEqualTo(entry);
        assertThat(lookup.json().getJsonObject("outcome")).isEqualTo(answer);
        Http.Response headed = head(app.url("/api/pools/p/dead"));
        assertThat(headed.status()).isEqualTo(200);
        assertThat(headed.body()).isEmpty();
        assertThat(head(app.url("/api/pools/p/dead/bad-1")).status()).isEqualTo(200);
        assertThat(head(app.url("/api/pools/p/dead/nope")).status()).isEqualTo(404);
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_an_unknown_entry_is_404_unknown_job(String via) {
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(), pool("p"))) {
        Http.Response read = Http.get(app.url("/api/pools/p/dead/nope"));
        Http.Response replayed = replay(app, "nope");
        Http.Response discarded = Http.delete(app.url("/api/pools/p/dead/nope"), null);

        for (Http.Response r : new Http.Response[] {read, replayed, discarded}) {
          assertThat(r.status()).as(r.body()).isEqualTo(404);
          assertThat(r.json().getString("error")).isEqualTo("UNKNOWN_JOB");
          assertThat(r.json().getString("message")).contains("'nope'");
        }
        assertThat(Http.get(app.url("/api/pools/p/dead")).json().getJsonArray("entries"))
            .isEmpty();
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_the_gauge_and_counters_count_the_set(String via) {
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(), pool("p"))) {
        poisoned(app, "bad-1");
        String[] text = new String[1];
        // A pool reached over the bus is metered from its stats events (every 500 ms).
        await().atMost(10, SECONDS).until(() -> {
          text[0] = Http.get(app.url("/metrics")).body();
          return Prometheus.value(text[0], "shepherd_dead_letters", "pool", "p") == 1;
        });
        assertThat(Prometheus.value(text[0], "shepherd_jobs_poisoned_total", "pool", "p"))
            .isEqualTo(1);
        assertThat(Prometheus.value(text[0], "shepherd_jobs_dead_lettered_total", "pool", "p"))
            .isEqualTo(1);
        assertThat(Prometheus.value(text[0], "shepherd_dead_letters_evicted_total", "pool", "p"))
            .isZero();
        assertThat(Http.delete(app.url("/api/pools/p/dead/bad-1"), null).status())
            .isEqualTo(200);
        await().atMost(10, SECONDS).until(() -> Prometheus.value(
            Http.get(app.url("/metrics")).body(), "shepherd_dead_letters", "pool", "p") == 0);
      }
    }
  }

  @Nested
  class ReplayAndDiscard {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_replay_is_admitted_and_lookup_follows_the_job_to_its_answer(String via) {
      JsonObject config = pool("p");
      config.getJsonObject("worker").put("class", EarlyIncarnationsCrashWorker.class.getName());
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(), config)) {
        // Incarnations 1 and 2 crash on it; the third, "fixed", runs it.
        Http.Response first = Http.post(app.url("/api/pools/p/jobs"), new JsonObject()
            .put("job", "fixable").put("payload", new JsonObject().put("crashBelow", 3)
                .put("delayMs", 400)).encode());
        assertThat(first.status()).as(first.body()).isEqualTo(503);

        Http.Response admitted = replay(app, "fixable");

        assertThat(admitted.status()).as(admitted.body()).isEqualTo(200);
        assertThat(admitted.json()).isEqualTo(new JsonObject().put("type", "accepted")
            .put("job", "fixable"));
        assertThat(Http.get(app.url("/api/pools/p/dead")).json().getInteger("size")).isZero();
        await().atMost(10, SECONDS).until(() -> "RUNNING".equals(
            Http.get(app.url("/api/pools/p/jobs/fixable")).json().getString("state")));
        Http.Response done = Http.get(app.url("/api/pools/p/jobs/fixable?wait=true"));
        assertThat(done.status()).as(done.body()).isEqualTo(200);
        assertThat(done.json().getString("type")).isEqualTo("completed");
        assertThat(done.json().getJsonObject("result").getInteger("incarnation")).isEqualTo(3);
        JsonObject answered = Http.get(app.url("/api/pools/p/jobs/fixable")).json();
        assertThat(answered.getString("state")).isEqualTo("ANSWERED");
        assertThat(answered.getJsonObject("outcome")).isEqualTo(done.json());
        assertThat(replay(app, "fixable").status()).isEqualTo(404);
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_replay_into_a_full_backlog_is_429_and_the_entry_stays(String via) {
      JsonObject config = JobsFixture.retryingPool("p", 1).put("backlogCapacity", 0);
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(), config)) {
        poisoned(app, "bad-1");
        // The slot the poison job crashed is replaced after its restart backoff (J7).
        await().atMost(10, SECONDS).until(() -> "IDLE".equals(Http.get(app.url("/api/pools/p"))
            .json().getJsonArray("slots").getJsonObject(0).getString("phase")));
        Http.Response busy = Http.post(app.url("/api/pools/p/jobs?wait=false"),
            "{\"job\":\"busy\",\"payload\":{\"sleepMs\":5000}}");
        assertThat(busy.json().getString("type")).isEqualTo("accepted");
        await().atMost(10, SECONDS).until(() -> "RUNNING".equals(
            Http.get(app.url("/api/pools/p/jobs/busy")).json().getString("state")));

        Http.Response refused = replay(app, "bad-1");

        assertThat(refused.status()).as(refused.body()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(refused.json().getString("type")).isEqualTo("rejected");
        assertThat(refused.json().getString("reason")).isEqualTo("BACKLOG_FULL");
        assertThat(refused.json().getJsonObject("payload"))
            .isEqualTo(new JsonObject().put("crash", true));
        assertThat(Http.get(app.url("/api/pools/p/dead/bad-1")).status()).isEqualTo(200);
        Http.delete(app.url("/api/pools/p/jobs/busy"), null);
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_discarded_entry_is_gone(String via) {
      try (JobsWebApp app = JobsWebApp.start(via, JobsFixture.quick(), pool("p"))) {
        poisoned(app, "bad-1");

        Http.Response discarded = Http.delete(app.url("/api/pools/p/dead/bad-1"), null);

        assertThat(discarded.status()).as(discarded.body()).isEqualTo(200);
        assertThat(discarded.json()).isEqualTo(new JsonObject().put("job", "bad-1")
            .put("discarded", true));
        Http.Response after = Http.get(app.url("/api/pools/p/dead/bad-1"));
        assertThat(after.status()).isEqualTo(404);
        assertThat(after.json().getString("error")).isEqualTo("UNKNOWN_JOB");
        assertThat(Http.delete(app.url("/api/pools/p/dead/bad-1"), null).status())
            .isEqualTo(404);
        assertThat(Http.get(app.url("/api/pools/p/dead")).json().getInteger("size")).isZero();
      }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_full_set_reports_what_it_evicted(String via) {
      JobSettings two = JobsFixture.quick().withDeadLetter(new Retention(2, 1L << 20), true);
      try (JobsWebApp app = JobsWebApp.start(via, two, pool("p"))) {
        for (String job : new String[] {"f-1", "f-2", "f-3"}) {
          Http.post(app.url("/api/pools/p/jobs"), new JsonObject().put("job", job)
              .put("payload", new JsonObject().put("fail", "no")).encode());
        }

        JsonObject page = Http.get(app.url("/api/pools/p/dead?limit=500")).json();

        assertThat(page.getInteger("size")).isEqualTo(2);
        assertThat(page.getInteger("evicted")).isEqualTo(1);
        assertThat(page.getInteger("limit")).isEqualTo(500);
        assertThat(page.getJsonArray("entries").stream()
            .map(e -> ((JsonObject) e).getString("reason"))).containsOnly("FAILED");
      }
    }
  }
}
