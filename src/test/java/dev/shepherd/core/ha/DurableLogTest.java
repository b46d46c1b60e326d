package dev.shepherd.core.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.Counters;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.JobSettings;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.Retention;
import dev.shepherd.core.Transition;
import dev.shepherd.runtime.ha.DurableJson;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What a successor reads back from the store (A3): the real core's records, passed through the
 * real {@link DurableGate} and written as the text {@link DurableJson} makes, replayed by {@link
 * DurableLog#recover}, rebuild exactly the image the pool computes of itself, with section 10's
 * state in it: waiting jobs with their due times, suspects with their stops, failure retries,
 * dead letters and recent outcomes (J2-J6). A pool of the next term recovered from it finds
 * them all. {@code FailoverSimulationTest} does the same under failovers.
 */
class DurableLogTest {
  private static final long T0 = 1_700_000_000_000L;

  private static RawJson raw(String text) {
    return new RawJson(text.getBytes(StandardCharsets.UTF_8));
  }

  private static DurableRecord.Answered answered(String job, String by) {
    return new DurableRecord.Answered(job, by, new Outcome.Cancelled(job));
  }

  private static DurableRecord.Accepted accepted(String job) {
    return new DurableRecord.Accepted(job, 0, 0, raw("1"), null, "r", 0, 1, null);
  }

  /**
   * A durable pool of two slots with section 10 on, whose effects go through a gate to a store
   * that holds JSON text, as {@code HaStore} does; the test plays the slots and the clock.
   */
  private static final class Journal {
    final Pool pool;
    final DurableGate gate;
    private String base;
    private final List<String> batches = new ArrayList<>();
    private final ArrayDeque<Long> acks = new ArrayDeque<>();
    private final ArrayDeque<Effect> released = new ArrayDeque<>();
    final Map<String, Effect.Assign> running = new HashMap<>();
    private final List<Effect.StartTimer> timers = new ArrayList<>();
    final Map<String, List<Outcome>> answers = new HashMap<>();
    long now = T0;

    Journal(PoolSettings settings) {
      pool = Pool.create(settings);
      gate = new DurableGate(60_000, now, pool::unanswered, new DurableGate.Output() {
        @Override
        public boolean release(Effect effect) {
          return released.add(effect);
        }

        @Override
        public void write(DurableGate.Batch batch) {
          if (batch.checkpoint()) {
            base = DurableJson.encode(DurableLog.checkpoint(pool.durableImage(), batch));
            batches.clear();
          } else {
            batches.add(DurableJson.encode(batch));
          }
          acks.add(batch.id());
        }
      });
      gate.offer(pool.start());
      settle();
    }

    void apply(PoolEvent event) {
      Transition t = pool.apply(event);
      assertThat(t).as(event.toString()).isInstanceOf(Transition.Applied.class);
      gate.offer(((Transition.Applied) t).effects());
      settle();
    }

    /** Lets every write be acknowledged and plays what leaves: slots deploy at once. */
    private void settle() {
      gate.pump(now);
      while (!acks.isEmpty() || !released.isEmpty()) {
        if (!acks.isEmpty()) {
          gate.written(acks.poll(), now);
          continue;
        }
        Effect effect = released.poll();
        if (effect instanceof Effect.Assign a) {
          running.put(a.job(), a);
        } else if (effect instanceof Effect.Deploy d) {
          apply(new PoolEvent.WorkerCreated(d.worker(), d.incarnation(), now));
        } else if (effect instanceof Effect.StartTimer s) {
          timers.add(s);
        } else if (effect instanceof Effect.Respond r && r.outcome().terminal()) {
          answers.computeIfAbsent(r.outcome().job(), j -> new ArrayList<>()).add(r.outcome());
        }
      }
    }

    void submit(String job, long delayMs, FailureRetry retry) {
      apply(new PoolEvent.Submit(job, raw("{\"job\":\"" + job + "\"}"), null, "r-" + job, 0,
          16, delayMs, retry, now));
    }

    void complete(String job) {
      Effect.Assign a = running.remove(job);
      apply(new PoolEvent.Completed(a.worker(), a.assignment(), "result-" + job, null, 9, now));
    }

    void fail(String job) {
      Effect.Assign a = running.remove(job);
      apply(new PoolEvent.Completed(a.worker(), a.assignment(), null,
          new JobError(500, "no luck", "java.lang.IllegalStateException"), 0, now));
    }

    void crash(String job) {
      Effect.Assign a = running.remove(job);
      apply(new PoolEvent.WorkerStopped(a.worker(), pool.incarnation(a.worker()), Exit.CRASH,
          "java.lang.StackOverflowError", now));
    }

    /** Moves the clock to {@code at}, firing the timers due by then in time order. */
    void advanceTo(long at) {
      while (true) {
        Effect.StartTimer next = timers.stream().filter(t -> t.at() <= at)
            .min(Comparator.comparingLong(Effect.StartTimer::at)).orElse(null);
        if (next == null) {
          break;
        }
        timers.remove(next);
        now = Math.max(now, next.at());
        apply(new PoolEvent.TimerFired(next.timer(), now));
      }
      now = at;
      settle();
    }

    /** What a successor would recover now. */
    DurableLog.Recovered recovered() {
      List<DurableGate.Batch> read = new ArrayList<>();
      batches.forEach(b -> read.add(DurableJson.decodeBatch(b)));
      return DurableLog.recover(DurableJson.decodeBase(base), read, pool.settings().term());
    }
  }

  private static PoolSettings settings() {
    return PoolSettings.defaults("journal", 2).withDurable(true).withTerm(3)
        .withJobTimeoutMs(600_000)
        .withJobs(JobSettings.DEFAULT
            .withRetryBackoff(new Backoff(1_000, 2.0, 10_000, 0.0))
            .withDeadLetter(new Retention(3, 1 << 20), true)
            .withRecentOutcomes(new Retention(4, 1 << 20)));
  }

  @Nested
  class Recovery {
    @Test
    void A3_a_log_that_a_takeover_went_on_with_replays_as_one_and_counts_its_records() {
      List<DurableGate.Batch> log = List.of(
          new DurableGate.Batch(1, List.of(accepted("a"), accepted("b")), List.of(), false,
              List.of()),
          // Term 2 goes on with the log it recovered from: its batch 1 follows term 1's.
          new DurableGate.Batch(1, List.of(answered("a", "r")), List.of(), false, List.of()),
          new DurableGate.Batch(2, List.of(), List.of("a"), false, List.of()));

      DurableLog.Recovered recovered = DurableLog.recover(DurableLog.Base.empty(0), log, 2);

      assertThat(recovered.records()).isEqualTo(3);
      assertThat(recovered.image().term()).isEqualTo(2);
      assertThat(recovered.image().jobs()).extracting(DurableImage.JobImage::job)
          .containsExactly("b");
      assertThat(recovered.undelivered()).as("a's answer was reported delivered").isEmpty();
    }


    @Test
    void A3_a_log_replayed_a_batch_at_a_time_recovers_what_it_recovers_at_once() {
      List<DurableGate.Batch> log = List.of(
          new DurableGate.Batch(1, List.of(accepted("a"), accepted("b")), List.of(), false,
              List.of()),
          new DurableGate.Batch(2, List.of(answered("a", "r")), List.of(), false, List.of()),
          new DurableGate.Batch(3, List.of(answered("b", "r")), List.of("a"), false, List.of()));
      DurableLog.Replay replay = new DurableLog.Replay(DurableLog.Base.empty(0));
      replay.apply(log.get(0));
      DurableLog.Recovered early = replay.recovered(1);
      replay.apply(log.get(1));
      replay.apply(log.get(2));

      assertThat(early.image().jobs()).hasSize(2);
      assertThat(replay.recovered(1)).isEqualTo(DurableLog.recover(DurableLog.Base.empty(0), log,
          1));
      assertThat(replay.recovered(1).undelivered()).extracting(DurableRecord.Answered::job)
          .containsExactly("b");
    }

    @Test
    void T3_the_latest_totals_written_are_recovered_and_a_batch_without_totals_keeps_them() {
      Counters older = new Counters(5, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0);
      Counters latest = new Counters(9, 1, 6, 1, 0, 0, 0, 0, 0, 0, 0, 0);
      List<DurableGate.Batch> batches = List.of(
          new DurableGate.Batch(1, List.of(), List.of(), false, List.of(), older),
          new DurableGate.Batch(2, List.of(), List.of(), false, List.of(), latest),
          new DurableGate.Batch(3, List.of(), List.of(), false, List.of(), null));
      assertThat(DurableLog.recover(DurableLog.Base.empty(1), batches, 2).counters())
          .isEqualTo(latest);
    }
    @Test
    void A3_J3_J4_waiting_jobs_and_suspects_are_recovered_with_their_due_times_and_stops() {
      Journal journal = new Journal(settings());
      journal.submit("later", 5_000, null);
      journal.submit("flaky", 0, new FailureRetry(3, new Backoff(2_000, 1.0, 2_000, 0.0)));
      journal.submit("crasher", 0, null);
      journal.fail("flaky");
      journal.crash("crasher");

      DurableImage image = journal.recovered().image();

      assertThat(image).isEqualTo(journal.pool.durableImage());
      assertThat(image.jobs()).extracting(DurableImage.JobImage::job, j -> j.dueAt() - T0,
              DurableImage.JobImage::front, DurableImage.JobImage::stops,
              DurableImage.JobImage::failures)
          .containsExactlyInAnyOrder(
              tuple("later", 5_000L, false, 0, 0),
              tuple("flaky", 2_000L, true, 0, 1),
              tuple("crasher", 1_000L, true, 1, 0));
      assertThat(image.jobs()).filteredOn(j -> j.job().equals("flaky"))
          .extracting(DurableImage.JobImage::retry)
          .containsExactly(new FailureRetry(3, new Backoff(2_000, 1.0, 2_000, 0.0)));
    }

    @Test
    void A3_J5_J6_dead_letters_and_recent_outcomes_are_recovered_through_evictions_replays_and_discards() {
      Journal journal = new Journal(settings());
      // A poison job: two crashes, retried a second after the first (J2, J3).
      journal.submit("poison", 0, null);
      journal.crash("poison");
      journal.advanceTo(journal.now + 1_000);
      journal.crash("poison");
      // Failures kept (J5), more than the set holds: the oldest is evicted.
      for (int i = 1; i <= 3; i++) {
        journal.submit("bad-" + i, 0, null);
        journal.fail("bad-" + i);
      }
      // Answers past the ring's capacity: the oldest are forgotten (J6).
      for (int i = 1; i <= 3; i++) {
        journal.submit("ok-" + i, 0, null);
        journal.complete("ok-" + i);
      }
      assertThat(journal.answers.get("poison")).singleElement()
          .satisfies(o -> assertThat(((Outcome.Interrupted) o).reason())
              .isInstanceOf(Interruption.Poison.class));
      assertThat(journal.pool.deadLetter("poison")).as("evicted").isNull();
      assertThat(journal.recovered().image()).isEqualTo(journal.pool.durableImage());

      // An operator replays one dead letter and discards another (J5).
      journal.apply(new PoolEvent.ReplayDead("bad-2", "r-ops", journal.now));
      journal.apply(new PoolEvent.DiscardDead("bad-3", journal.now));
      DurableImage image = journal.recovered().image();

      assertThat(image).isEqualTo(journal.pool.durableImage());
      assertThat(image.dead()).extracting(DeadLetter::job).containsExactly("bad-1");
      assertThat(image.recent()).extracting(r -> r.job())
          .containsExactly("bad-3", "ok-1", "ok-2", "ok-3");
      assertThat(image.jobs()).extracting(DurableImage.JobImage::job).containsExactly("bad-2");
    }

    @Test
    void A3_J5_J6_a_pool_of_the_next_term_recovered_from_the_store_finds_what_its_predecessor_kept() {
      Journal journal = new Journal(settings());
      journal.submit("poison", 0, null);
      journal.crash("poison");
      journal.advanceTo(journal.now + 1_000);
      journal.crash("poison");
      journal.submit("done", 0, null);
      journal.complete("done");
      journal.submit("later", 60_000, null);
      DurableLog.Recovered recovered = journal.recovered();

      Pool next = Pool.create(journal.pool.settings().withTerm(4));
      next.start();
      Transition t = next.apply(new PoolEvent.Recover(recovered.image(), journal.now));

      assertThat(t).isInstanceOf(Transition.Applied.class);
      assertThat(next.deadLetterCount()).isEqualTo(1);
      DeadLetter poison = next.deadLetter("poison");
      assertThat(poison.reason()).isEqualTo("POISON");
      assertThat(poison.attempts()).hasSize(2);
      assertThat(JsonValues.toJson(poison.payload()))
          .isEqualTo(new JsonObject().put("job", "poison"));
      JobView done = next.lookup("done");
      assertThat(done.state()).isEqualTo(JobView.JobState.ANSWERED);
      assertThat(done.outcome()).isEqualTo(new Outcome.Completed("done", "result-done",
          ((Outcome.Completed) journal.answers.get("done").get(0)).worker(), 1));
      JobView later = next.lookup("later");
      assertThat(later.state()).isEqualTo(JobView.JobState.WAITING);
      assertThat(later.dueAt()).isEqualTo(journal.pool.lookup("later").dueAt());
    }
  }

  /** Which answers a successor sends again (A3), when a job id is answered more than once. */
  @Nested
  class Undelivered {
    @Test
    void A3_an_answer_recorded_in_the_batch_that_reports_an_earlier_answer_of_its_job_delivered_is_sent_again() {
      // "a" answered, sent, then accepted again under its id (a replay, J5) and answered again
      // in the batch that reports the first answer delivered; the second never left.
      DurableGate.Batch one = new DurableGate.Batch(1, List.of(accepted("a"),
          answered("a", "first")), List.of(), false, List.of());
      DurableGate.Batch two = new DurableGate.Batch(2, List.of(accepted("a"),
          answered("a", "second")), List.of("a"), false, List.of());

      DurableLog.Recovered recovered = DurableLog.recover(DurableLog.Base.empty(0),
          List.of(one, two), 1);

      assertThat(recovered.undelivered()).extracting(DurableRecord.Answered::replyTo)
          .containsExactly("second");
    }

    @Test
    void A3_two_undelivered_answers_of_one_job_id_are_both_sent_again_and_one_delivery_crosses_off_the_older() {
      DurableGate.Batch one = new DurableGate.Batch(1, List.of(accepted("a"),
          answered("a", "first"), accepted("a"), answered("a", "second")), List.of(), false,
          List.of());
      DurableGate.Batch two = new DurableGate.Batch(2, List.of(), List.of("a"), false, List.of());

      assertThat(DurableLog.recover(DurableLog.Base.empty(0), List.of(one), 1).undelivered())
          .extracting(DurableRecord.Answered::replyTo).containsExactly("first", "second");
      assertThat(DurableLog.recover(DurableLog.Base.empty(0), List.of(one, two), 1)
          .undelivered()).extracting(DurableRecord.Answered::replyTo).containsExactly("second");
    }

    @Test
    void A3_two_answers_of_one_job_id_each_reported_delivered_are_neither_sent_again() {
      DurableGate.Batch one = new DurableGate.Batch(1, List.of(accepted("a"),
          answered("a", "first"), accepted("a"), answered("a", "second")), List.of(), false,
          List.of());
      DurableGate.Batch two = new DurableGate.Batch(2, List.of(), List.of("a"), false, List.of());
      DurableGate.Batch three = new DurableGate.Batch(3, List.of(), List.of("a"), false,
          List.of());

      assertThat(DurableLog.recover(DurableLog.Base.empty(0), List.of(one, two, three), 1)
          .undelivered()).as("the second delivery crosses off the second answer").isEmpty();
    }

    @Test
    void A3_a_delivery_of_a_job_with_no_recorded_answer_crosses_off_nothing() {
      DurableGate.Batch one = new DurableGate.Batch(1, List.of(accepted("a"),
          answered("a", "first")), List.of("b"), false, List.of());

      assertThat(DurableLog.recover(DurableLog.Base.empty(0), List.of(one), 1).undelivered())
          .extracting(DurableRecord.Answered::replyTo).containsExactly("first");
    }

    @Test
    void A3_answers_a_checkpoint_kept_are_crossed_off_by_later_deliveries() {
      DurableLog.Base base = new DurableLog.Base(DurableImage.empty(1),
          List.of(answered("a", "kept"), answered("b", "kept")));
      DurableGate.Batch later = new DurableGate.Batch(7, List.of(), List.of("b"), false,
          List.of());

      assertThat(DurableLog.recover(base, List.of(later), 1).undelivered())
          .extracting(DurableRecord.Answered::job).containsExactly("a");
    }
  }
}
