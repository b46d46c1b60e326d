package dev.shepherd.runtime;

import static dev.shepherd.runtime.JobsFixture.deployReady;
import static dev.shepherd.runtime.JobsFixture.quick;
import static dev.shepherd.runtime.JobsFixture.retryingPool;
import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobSettings;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.Retention;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.testworkers.EarlyIncarnationsCrashWorker;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dead-letter set end to end (J5) through {@link PoolClient}, handed straight to the
 * coordinator ({@code local}) and over the bus as from another node ({@code bus}), and through
 * the raw {@code <prefix>.dead.*} addresses: a job that crashes its worker twice is answered
 * POISON and listed, read, replayed (admitted like any submit, then found by lookup) or
 * discarded; a replay into a full backlog is rejected and the entry stays.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DeadLetterEndToEndTest {
  private static final String POOL = "dl";

  private static PoolClient client(Vertx vertx, String via) {
    BiFunction<Vertx, String, PoolClient> make = via.equals("local") ? JobsFixture::local
        : JobsFixture::overBus;
    return make.apply(vertx, POOL);
  }

  /** Runs a job that crashes every incarnation it meets until it is poisoned (J2). */
  private static Outcome poison(PoolClient client, String job) {
    return join(client.outcome(JobRequest.of(crash()).withJob(job)));
  }

  private static String errorName(Throwable failure) {
    assertThat(failure).isInstanceOf(PoolErrorException.class);
    return ((PoolErrorException) failure).name();
  }

  @Nested
  class Poisoned {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_job_that_crashes_its_worker_twice_is_answered_poison_and_kept_with_its_attempts(
        String via, Vertx vertx) {
      deployReady(vertx, retryingPool(POOL, 1), quick());
      PoolClient client = client(vertx, via);

      Outcome answer = poison(client, "bad-1");

      assertThat(answer).isInstanceOfSatisfying(Outcome.Interrupted.class, i -> {
        assertThat(i.reason()).isInstanceOfSatisfying(Interruption.Poison.class, p -> {
          assertThat(p.stops()).isEqualTo(2);
          assertThat(p.last().exit()).isEqualTo(Exit.CRASH);
        });
        assertThat(i.attempts()).isEqualTo(2);
        assertThat(i.payload()).isEqualTo(crash());
      });
      DeadLetterPage page = join(client.deadLetters(0, 50));
      assertThat(page.pool()).isEqualTo(POOL);
      assertThat(page.size()).isEqualTo(1);
      assertThat(page.evicted()).isZero();
      assertThat(page.offset()).isZero();
      assertThat(page.limit()).isEqualTo(50);
      DeadLetter entry = page.entries().get(0);
      assertThat(entry.job()).isEqualTo("bad-1");
      assertThat(entry.reason()).isEqualTo("POISON");
      assertThat(entry.payload()).isEqualTo(crash());
      assertThat(entry.answer()).isEqualTo(answer);
      assertThat(entry.attempts()).hasSize(2).allSatisfy(a -> {
        assertThat(a.worker()).isEqualTo("w-0");
        assertThat(a.ended()).isEqualTo("CRASH");
        assertThat(a.endedAt()).isGreaterThanOrEqualTo(a.startedAt());
      });
      assertThat(entry.attempts()).extracting(a -> a.attempt()).containsExactly(1, 2);
      assertThat(entry.attempts()).extracting(a -> a.incarnation()).containsExactly(1, 2);
      assertThat(join(client.deadLetter("bad-1"))).isEqualTo(entry);
      JobView view = join(client.lookup("bad-1"));
      assertThat(view.state()).isEqualTo(JobView.JobState.DEAD);
      assertThat(view.deadLetter()).isEqualTo(entry);
      assertThat(view.outcome()).isEqualTo(answer);
      assertThat(status(vertx, POOL).getInteger("deadLetters")).isEqualTo(1);
    }

    @Test
    void J5_the_bus_lists_and_reads_entries_in_the_documented_shape(Vertx vertx) {
      deployReady(vertx, retryingPool(POOL, 1), quick());
      poison(JobsFixture.local(vertx, POOL), "bad-1");
      poison(JobsFixture.local(vertx, POOL), "bad-2");
      Addresses a = Addresses.forPool(POOL);

      JsonObject page = request(vertx, a.deadLetters(), new JsonObject());
      JsonObject second = request(vertx, a.deadLetters(),
          new JsonObject().put("offset", 1).put("limit", 1));
      JsonObject one = request(vertx, a.deadLetter(), new JsonObject().put("job", "bad-1"));

      assertThat(page.fieldNames()).containsExactlyInAnyOrder("pool", "size", "evicted",
          "offset", "limit", "entries");
      assertThat(page.getInteger("size")).isEqualTo(2);
      assertThat(page.getInteger("limit")).isEqualTo(50);
      assertThat(page.getJsonArray("entries").stream()
          .map(e -> ((JsonObject) e).getString("job"))).as("newest first")
          .containsExactly("bad-2", "bad-1");
      assertThat(second.getJsonArray("entries")).hasSize(1);
      assertThat(second.getJsonArray("entries").getJsonObject(0).getString("job"))
          .isEqualTo("bad-1");
      assertThat(one.fieldNames()).containsExactlyInAnyOrder("job", "key", "reason", "payload",
          "bytes", "timeoutMs", "attempts", "answer", "at", "group", "priority");
      assertThat(one.getString("reason")).isEqualTo("POISON");
      assertThat(one.getJsonObject("payload")).isEqualTo(crash());
      assertThat(one.getJsonObject("answer").getString("type")).isEqualTo("interrupted");
      assertThat(one.getJsonObject("answer").getJsonObject("reason").getString("kind"))
          .isEqualTo("POISON");
      assertThat(one.getJsonArray("attempts").getJsonObject(0).fieldNames())
          .containsExactlyInAnyOrder("attempt", "worker", "incarnation", "startedAt",
              "endedAt", "ended", "detail");
      assertThat(one).isEqualTo(page.getJsonArray("entries").getJsonObject(1));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_job_failed_after_its_last_attempt_is_kept_unless_turned_off(String via,
        Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      deployReady(vertx, demoPool("keeps-none", 1),
          quick().withDeadLetter(new Retention(1_000, 1L << 20), false));
      PoolClient client = client(vertx, via);

      Outcome failed = join(client.outcome(JobRequest.of(fail("no")).withJob("f-1")));
      join(JobsFixture.local(vertx, "keeps-none").outcome(JobRequest.of(fail("no"))));

      assertThat(failed).isInstanceOf(Outcome.Failed.class);
      DeadLetter entry = join(client.deadLetter("f-1"));
      assertThat(entry.reason()).isEqualTo("FAILED");
      assertThat(entry.attempts()).singleElement()
          .satisfies(a -> assertThat(a.ended()).isEqualTo("FAILED"));
      assertThat(join(JobsFixture.local(vertx, "keeps-none").deadLetters(0, 10)).size())
          .isZero();
    }
  }

  @Nested
  class Replay {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_replayed_job_runs_again_under_its_id_and_lookup_follows_it(String via,
        Vertx vertx) {
      JsonObject config = retryingPool(POOL, 1);
      worker(config).put("class", EarlyIncarnationsCrashWorker.class.getName());
      deployReady(vertx, config, quick());
      PoolClient client = client(vertx, via);
      JsonObject payload = new JsonObject().put("crashBelow", 3).put("delayMs", 400);
      // Incarnations 1 and 2 crash on it: poisoned. Incarnation 3, the "fixed" one, runs it.
      Outcome poisoned = join(client.outcome(JobRequest.of(payload).withJob("fixable")));
      assertThat(poisoned).isInstanceOf(Outcome.Interrupted.class);

      Outcome admission = join(client.replay("fixable"));

      assertThat(admission).isEqualTo(new Outcome.Accepted("fixable"));
      assertThat(join(client.deadLetters(0, 10)).size()).isZero();
      await().atMost(STEP).until(() -> join(client.lookup("fixable")).state()
          == JobView.JobState.RUNNING);
      JobView running = join(client.lookup("fixable"));
      assertThat(running.worker()).isEqualTo("w-0");
      assertThat(running.attempts()).isEqualTo(1);
      Outcome done = join(client.await("fixable"));
      assertThat(done).isInstanceOfSatisfying(Outcome.Completed.class, c -> assertThat(
          ((JsonObject) c.result()).getInteger("incarnation")).isEqualTo(3));
      JobView answered = join(client.lookup("fixable"));
      assertThat(answered.state()).isEqualTo(JobView.JobState.ANSWERED);
      assertThat(answered.outcome()).isEqualTo(done);
      assertThat(failure(client.replay("fixable"))).satisfies(e ->
          assertThat(errorName(e)).isEqualTo("UNKNOWN_JOB"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_replay_into_a_full_backlog_is_rejected_and_the_entry_stays(String via,
        Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1).put("backlogCapacity", 0), quick());
      PoolClient client = client(vertx, via);
      join(client.outcome(JobRequest.of(fail("no")).withJob("f-1")));
      assertThat(join(client.admit(JobRequest.of(sleep(5_000)).withJob("busy"))))
          .isInstanceOf(Outcome.Accepted.class);
      await().atMost(STEP).until(() -> join(client.lookup("busy")).state()
          == JobView.JobState.RUNNING);

      Outcome admission = join(client.replay("f-1"));

      assertThat(admission).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
        assertThat(r.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
        assertThat(r.job()).isEqualTo("f-1");
        assertThat(r.payload()).isEqualTo(fail("no"));
      });
      assertThat(join(client.deadLetter("f-1")).reason()).isEqualTo("FAILED");
      assertThat(join(client.deadLetters(0, 10)).size()).isEqualTo(1);
      join(client.cancel("busy"));
    }

    @Test
    void J5_the_bus_answers_a_replay_with_the_admission_a_submit_has(Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      join(JobsFixture.local(vertx, POOL).outcome(JobRequest.of(fail("no")).withJob("f-1")));

      JsonObject admission = request(vertx, Addresses.forPool(POOL).replayDead(),
          new JsonObject().put("job", "f-1"));
      ReplyException again = refused(vertx, Addresses.forPool(POOL).replayDead(),
          new JsonObject().put("job", "never"));

      assertThat(admission).isEqualTo(new JsonObject().put("type", "accepted").put("job", "f-1"));
      assertThat(again.failureCode()).isEqualTo(404);
      assertThat(again.getMessage()).startsWith("UNKNOWN_JOB: ").contains("'never'");
    }
  }

  @Nested
  class Discard {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"local", "bus"})
    void J5_a_discarded_entry_is_gone_and_a_second_discard_is_unknown_job(String via,
        Vertx vertx) {
      deployReady(vertx, retryingPool(POOL, 1), quick());
      PoolClient client = client(vertx, via);
      Outcome answer = poison(client, "bad-1");
      poison(client, "bad-2");

      join(client.discard("bad-1"));

      assertThat(errorName(failure(client.deadLetter("bad-1")))).isEqualTo("UNKNOWN_JOB");
      assertThat(errorName(failure(client.discard("bad-1")))).isEqualTo("UNKNOWN_JOB");
      assertThat(errorName(failure(client.replay("bad-1")))).isEqualTo("UNKNOWN_JOB");
      DeadLetterPage page = join(client.deadLetters(0, 10));
      assertThat(page.entries()).extracting(DeadLetter::job).containsExactly("bad-2");
      // Its answer is still remembered among the recent outcomes (J6).
      JobView view = join(client.lookup("bad-1"));
      assertThat(view.state()).isEqualTo(JobView.JobState.ANSWERED);
      assertThat(view.outcome()).isEqualTo(answer);
    }

    @Test
    void J5_the_bus_answers_a_discard_with_the_job_and_refuses_an_unknown_one(Vertx vertx) {
      deployReady(vertx, demoPool(POOL, 1), quick());
      join(JobsFixture.local(vertx, POOL).outcome(JobRequest.of(fail("no")).withJob("f-1")));
      Addresses a = Addresses.forPool(POOL);

      JsonObject discarded = request(vertx, a.discardDead(), new JsonObject().put("job", "f-1"));
      ReplyException again = refused(vertx, a.discardDead(), new JsonObject().put("job", "f-1"));
      ReplyException read = refused(vertx, a.deadLetter(), new JsonObject().put("job", "f-1"));

      assertThat(discarded).isEqualTo(new JsonObject().put("job", "f-1")
          .put("discarded", true));
      assertThat(List.of(again.failureCode(), read.failureCode())).containsOnly(404);
      assertThat(again.getMessage()).startsWith("UNKNOWN_JOB: ");
    }
  }

  @Nested
  class Bounds {

    @Test
    void J5_a_full_set_evicts_its_oldest_entry_and_counts_it(Vertx vertx) {
      JobSettings two = quick().withDeadLetter(new Retention(2, 1L << 20), true);
      deployReady(vertx, demoPool(POOL, 1), two);
      PoolClient client = JobsFixture.overBus(vertx, POOL);
      for (String job : List.of("f-1", "f-2", "f-3")) {
        join(client.outcome(JobRequest.of(fail("no")).withJob(job)));
      }

      DeadLetterPage page = join(client.deadLetters(0, 500));

      assertThat(page.size()).isEqualTo(2);
      assertThat(page.evicted()).isEqualTo(1);
      assertThat(page.entries()).extracting(DeadLetter::job).containsExactly("f-3", "f-2");
      assertThat(join(client.deadLetters(2, 10)).entries()).isEmpty();
    }

    @Test
    void J5_the_client_refuses_bad_bounds_and_ids_before_asking(Vertx vertx) {
      PoolClient client = JobsFixture.overBus(vertx, "nowhere");

      assertThat(failure(client.deadLetters(-1, 10))).isInstanceOf(BadRequest.class)
          .hasMessageStartingWith("offset");
      assertThat(failure(client.deadLetters(0, 0))).hasMessageStartingWith("limit");
      assertThat(failure(client.deadLetters(0, 501))).hasMessageStartingWith("limit");
      assertThat(failure(client.deadLetter(""))).hasMessageStartingWith("job");
      assertThat(failure(client.replay(null))).hasMessageStartingWith("job");
      assertThat(failure(client.discard("x".repeat(257)))).hasMessageStartingWith("job");
    }
  }
}
