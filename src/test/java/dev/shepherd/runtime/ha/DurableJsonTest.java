package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Attempt;
import dev.shepherd.core.Backoff;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.Counters;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Exit;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.RateLimit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.core.Retirement;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.payload.JsonValues;
import dev.shepherd.runtime.payload.RawJson;
import dev.shepherd.runtime.wire.AddressResponder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What a highly available pool writes to the cluster reads back as it was (A3): every record,
 * images and checkpoints, section 10's too (waiting jobs, suspects, failure retries, dead letters,
 * recent outcomes; J3-J6); payloads come back as the JSON they were, replyTo as the address the
 * submitter gave (a request/reply submitter's as none); what an older version wrote reads with
 * the new fields at their defaults.
 */
class DurableJsonTest {
  private static final Interruption.WorkerStopped LOST =
      new Interruption.WorkerStopped("h1/w-0", Exit.NODE_LOST, "node left");
  private static final Interruption.WorkerStopped CRASHED =
      new Interruption.WorkerStopped("w-1", Exit.CRASH, "java.lang.OutOfMemoryError: boom");
  private static final FailureRetry RETRY = new FailureRetry(4, new Backoff(250, 2.5, 8_000,
      0.15));

  static RawJson raw(String text) {
    return new RawJson(text.getBytes(StandardCharsets.UTF_8));
  }

  private static DurableGate.Batch roundTrip(DurableGate.Batch batch) {
    return DurableJson.decodeBatch(DurableJson.encode(batch));
  }

  private static DurableRecord roundTrip(DurableRecord record) {
    return DurableRecordJson.decodeRecord(
        new JsonObject(DurableRecordJson.encode(record).encode()));
  }

  /** A poisoned job's dead letter: two crashed attempts, answered POISON with its payload. */
  static DeadLetter poisoned(String job, RawJson payload) {
    return new DeadLetter(job, "k", payload, payload.length(), 500, List.of(
        new Attempt(1, "w-1", 3, 1_000, 1_010, "CRASH", "java.lang.OutOfMemoryError: boom"),
        new Attempt(2, "w-0", 7, 2_100, 2_104, "TIMEOUT", null)),
        new Outcome.Interrupted(job, payload, 2, new Interruption.Poison(2, CRASHED)), 2_104,
        "tenant-a", 1, new FailureRetry(4, new Backoff(100, 2.0, 1_000, 0.1)));
  }

  /** A job whose last failure was answered and kept: the error's type and all. */
  static DeadLetter failed(String job) {
    return new DeadLetter(job, null, null, 0, 0,
        List.of(new Attempt(1, "w-0", 1, 10, 20, "FAILED", "no such user")),
        new Outcome.Failed(job, new JobError(404, "no such user",
            "java.util.NoSuchElementException"), "w-0", 1), 20);
  }

  /** One record of every kind, with every section-10 field set (and some at their defaults). */
  static List<DurableRecord> everyKind() {
    RawJson payload = raw("{\"a\": [1, 2, {\"b\": null}], \"s\": \"\\u00e9\\n\"}");
    Outcome.Completed completed = new Outcome.Completed("job-7", new JsonObject().put("x", 1),
        "w-1", 2);
    Outcome.Interrupted poison = new Outcome.Interrupted("p", payload, 2,
        new Interruption.Poison(2, CRASHED));
    return List.of(
        new DurableRecord.Accepted("job-7", 7, 12, payload, "k", "client.answers", 500, 22, "w-1"),
        new DurableRecord.Accepted("mine", 0, 13, null, null, null, 0, 0, null),
        new DurableRecord.Accepted("later", 0, 14, raw("3"), null, "r", 0, 1, null, 9_000_000L,
            RETRY),
        new DurableRecord.Accepted("own", 0, 15, raw("[]"), null, "r", 0, 2, null, 0,
            FailureRetry.NONE),
        new DurableRecord.Assigned("job-7", "w-1", 2),
        new DurableRecord.Requeued("job-7", 3, LOST),
        new DurableRecord.Requeued("job-8", 4, new Interruption.AttemptsExhausted(3, LOST)),
        new DurableRecord.Requeued("suspect", 5, CRASHED, 1, 0, 1_700_000_000_123L),
        new DurableRecord.Requeued("flaky", 6, null, 0, 2, 0),
        new DurableRecord.Answered("job-7", "client.answers", completed),
        new DurableRecord.Answered("job-7", "client.answers", completed,
            new RecentOutcome("job-7", completed, 42, 7)),
        new DurableRecord.Answered("p", null, poison, new RecentOutcome("p", poison, 43, 40)),
        new DurableRecord.Answered("job-9", null,
            new Outcome.Failed("job-9", new JobError(500, "boom", "java.io.IOException"), "w-0",
                1)),
        new DurableRecord.Answered("job-10", "a", new Outcome.Cancelled("job-10"),
            new RecentOutcome("job-10", new Outcome.Cancelled("job-10"), 44, 0)),
        new DurableRecord.Answered("stopped", "a", new Outcome.Interrupted("stopped", null, 0,
            new Interruption.PoolStopped())),
        new DurableRecord.Answered("gone", "a", new Outcome.Interrupted("gone", raw("\"x\""), 1,
            new Interruption.AffinityRetired("w-2", Retirement.CREATION_REJECTED))),
        new DurableRecord.Forgotten("job-3"),
        new DurableRecord.DeadLettered(poisoned("p", payload)),
        new DurableRecord.DeadLettered(failed("f")),
        new DurableRecord.DeadRemoved("p"),
        new DurableRecord.Bound("k", "w-1", true),
        new DurableRecord.Unbound("k2"),
        new DurableRecord.HostKnown("h1", "node-1", List.of("h1/w-0", "h1/w-1")),
        new DurableRecord.Accepted("grouped", 0, 16, raw("1"), null, "r", 0, 1, null, 0, null,
            "tenant-1", 0),
        new DurableRecord.Returned("grouped", -3, 1),
        new DurableRecord.Accepted("watched", 0, 17, raw("2"), null, "r", 0, 1, null, 0, null,
            null, 5, 250),
        new DurableRecord.GroupSet("tenant-1", new GroupSettings(2, 10, 3,
            new RateLimit(5, 1_000), true)),
        new DurableRecord.GroupSet("tenant-2", new GroupSettings(null, null, null, null, null)),
        new DurableRecord.GroupSet("tenant-3", null),
        new DurableRecord.Paused("tenant-1", 77),
        new DurableRecord.Paused(null, 78),
        new DurableRecord.Resumed("tenant-1"),
        new DurableRecord.Resumed(null),
        new DurableRecord.Resized(6, 2),
        new DurableRecord.Retargeted("job-3", "w-0"),
        new DurableRecord.Checkpointed("job-3",
            new JsonObject().put("page", 3).put("of", 9), 21));
  }

  @Nested
  class Records {
    @Test
    void A3_the_sample_holds_every_kind_of_record() {
      Set<Class<?>> kinds = everyKind().stream().map(Object::getClass)
          .collect(Collectors.toSet());
      assertThat(kinds).containsExactlyInAnyOrder(DurableRecord.class.getPermittedSubclasses());
    }

    @Test
    void A3_every_record_of_a_batch_reads_back_as_it_was_written() {
      DurableGate.Batch batch = new DurableGate.Batch(42, everyKind(), List.of("job-3", "job-4"),
          false, List.of());

      assertThat(roundTrip(batch)).isEqualTo(batch);
    }

    @Test
    void T3_a_batch_keeps_the_pools_totals_each_apart_and_its_answers_still_to_send() {
      Counters totals = new Counters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
      DurableRecord.Answered answer = new DurableRecord.Answered("job-9", "reply.9",
          new Outcome.Completed("job-9", new JsonObject().put("n", 9), "w-0", 1));
      DurableGate.Batch batch = new DurableGate.Batch(43, everyKind(), List.of("job-3"), false,
          List.of(answer), totals);

      DurableGate.Batch read = roundTrip(batch);

      assertThat(read).isEqualTo(batch);
      assertThat(read.counters()).isEqualTo(totals);
      assertThat(roundTrip(new DurableGate.Batch(44, List.of(), List.of(), false, List.of()))
          .counters()).isNull();
    }

    @Test
    void A3_a_payload_held_as_a_value_is_written_as_its_json_and_a_rejection_keeps_its_payload() {
      DurableRecord.Accepted value = new DurableRecord.Accepted("v", 0, 1,
          new JsonObject().put("a", 1), null, "r", 0, 7, null);
      DurableRecord.Answered rejected = new DurableRecord.Answered("x", "r",
          new Outcome.Rejected("x", RejectionReason.BACKLOG_FULL, raw("{\"b\":2}"), "full"));

      DurableRecord.Accepted read = (DurableRecord.Accepted) roundTrip(value);

      assertThat(read.payload()).isEqualTo(raw("{\"a\":1}"));
      assertThat(roundTrip(rejected)).isEqualTo(rejected);
    }

    @Test
    void A3_each_record_alone_reads_back_as_it_was_written() {
      for (DurableRecord record : everyKind()) {
        assertThat(roundTrip(record)).as(record.toString()).isEqualTo(record);
      }
    }

    @Test
    void J3_J4_a_due_time_and_a_jobs_own_failure_retries_read_back_exactly() {
      DurableRecord.Accepted accepted = new DurableRecord.Accepted("d", 0, 1, raw("{}"), null,
          "r", 0, 2, null, 1_700_000_000_999L, new FailureRetry(2, Backoff.NONE));

      DurableRecord.Accepted read = (DurableRecord.Accepted) roundTrip(accepted);

      assertThat(read.dueAt()).isEqualTo(1_700_000_000_999L);
      assertThat(read.retry()).isEqualTo(new FailureRetry(2, Backoff.NONE));
      assertThat(((DurableRecord.Accepted) roundTrip(new DurableRecord.Accepted("e", 0, 1, null,
          null, null, 0, 0, null, 0, RETRY))).retry()).isEqualTo(RETRY);
    }

    @Test
    void J2_J5_a_poison_answer_keeps_its_stops_and_last_stop_and_hands_back_the_payload_as_it_was() {
      RawJson payload = raw("{ \"spaced\" :  true }");
      DurableRecord.Answered answered = new DurableRecord.Answered("p", "r",
          new Outcome.Interrupted("p", payload, 3, new Interruption.Poison(3, CRASHED)));

      Outcome.Interrupted read = (Outcome.Interrupted) ((DurableRecord.Answered)
          roundTrip(answered)).outcome();

      assertThat(read.reason()).isEqualTo(new Interruption.Poison(3, CRASHED));
      assertThat(read.payload()).isInstanceOf(RawJson.class);
      assertThat(((RawJson) read.payload()).text()).isEqualTo("{ \"spaced\" :  true }");
    }

    @Test
    void J1_a_failed_answer_keeps_its_errors_type_and_one_without_a_type_reads_without_one() {
      for (JobError error : List.of(new JobError(500, "boom", "java.lang.IllegalStateException"),
          new JobError(409, "taken"))) {
        DurableRecord.Answered answered = new DurableRecord.Answered("f", "r",
            new Outcome.Failed("f", error, "w-0", 1));
        assertThat(((Outcome.Failed) ((DurableRecord.Answered) roundTrip(answered)).outcome())
            .error()).isEqualTo(error);
      }
    }

    @Test
    void J5_a_dead_letter_keeps_its_attempts_and_answer_and_a_replay_gets_its_payload_as_it_was() {
      RawJson payload = raw("[1,  2]");
      DeadLetter entry = poisoned("p", payload);

      DeadLetter read = ((DurableRecord.DeadLettered) roundTrip(
          new DurableRecord.DeadLettered(entry))).entry();

      assertThat(read).isEqualTo(entry);
      assertThat(read.reason()).isEqualTo("POISON");
      assertThat(read.attempts()).extracting(Attempt::ended).containsExactly("CRASH", "TIMEOUT");
      assertThat(((RawJson) read.payload()).text()).isEqualTo("[1,  2]");
      assertThat(((RawJson) ((Outcome.Interrupted) read.answer()).payload()).text())
          .isEqualTo("[1,  2]");
    }
  }

  @Nested
  class Images {
    @Test
    void A3_a_checkpoint_base_reads_back_with_its_image_and_undelivered_answers() {
      DurableImage image = new DurableImage(5, 9,
          List.of(new DurableImage.JobImage("job-9", 9, 1, raw("\"text\""), "k", "r.1", 0, 6,
                  null, 1, "w-0", null),
              new DurableImage.JobImage("c", 0, 2, raw("[true]"), null, null, 100, 6, "w-1", 2,
                  null, LOST)),
          List.of(new DurableImage.BindingImage("k", "w-0", false)),
          List.of(new DurableImage.HostImage("h1", "node-1", List.of("h1/w-0"))));
      DurableLog.Base base = new DurableLog.Base(image, List.of(new DurableRecord.Answered("j",
          "r.2", new Outcome.Interrupted("j", raw("{\"p\":1}"), 3,
              new Interruption.AttemptsExhausted(3, LOST)))));

      DurableLog.Base read = DurableJson.decodeBase(DurableJson.encode(base));

      assertThat(read.image()).isEqualTo(image);
      assertThat(read.undelivered()).isEqualTo(base.undelivered());
      Outcome.Interrupted answer = (Outcome.Interrupted) read.undelivered().get(0).outcome();
      assertThat(answer.reason()).isEqualTo(new Interruption.AttemptsExhausted(3, LOST));
      assertThat(JsonValues.toJson(answer.payload())).isEqualTo(new JsonObject().put("p", 1));
    }

    @Test
    void F6_an_image_keeps_the_size_a_resize_set_and_one_without_reads_without() {
      DurableImage sized = new DurableImage(3, 0, List.of(), List.of(), List.of(), List.of(),
          List.of(), List.of(), null, new dev.shepherd.core.PoolSize(6, 2));
      DurableImage plain = DurableImage.empty(3);

      assertThat(DurableJson.decodeBase(DurableJson.encode(new DurableLog.Base(sized, List.of())))
          .image()).isEqualTo(sized);
      assertThat(DurableJson.decodeBase(DurableJson.encode(new DurableLog.Base(plain, List.of())))
          .image().size()).isNull();
    }

    @Test
    void J3_J5_J6_an_image_with_waiting_jobs_suspects_dead_letters_and_recent_outcomes_reads_back_equal() {
      Outcome.Completed done = new Outcome.Completed("old", "result", "w-0", 1);
      Outcome.Interrupted exhausted = new Outcome.Interrupted("tired", raw("{}"), 3,
          new Interruption.AttemptsExhausted(3, LOST));
      DurableImage image = new DurableImage(8, 40,
          List.of(
              // A suspect waiting for its retry delay, to go to the front (J2, J3).
              new DurableImage.JobImage("suspect", 0, 3, raw("{\"n\":1}"), "k", "r.1", 0, 7,
                  "w-1", 1, null, CRASHED, 1_700_000_005_000L, true, 1, 0, null),
              // A delayed submit, to go to the back when due (J4), with its own retries.
              new DurableImage.JobImage("later", 0, 4, raw("2"), null, "r.2", 250, 1, null, 0,
                  null, null, 1_700_000_009_000L, false, 0, 0, RETRY),
              // A job whose failure is being retried at once, queued.
              new DurableImage.JobImage("job-40", 40, 5, raw("null"), null, null, 0, 4, null, 1,
                  null, null, 0, false, 0, 1, new FailureRetry(3, Backoff.NONE)),
              // Running, a suspect already.
              new DurableImage.JobImage("again", 0, 6, raw("true"), null, "r.3", 0, 4, null, 2,
                  "w-0", CRASHED, 0, false, 1, 0, null)),
          List.of(new DurableImage.BindingImage("k", "w-1", true)),
          List.of(new DurableImage.HostImage("h1", "node-1", List.of("h1/w-0", "h1/w-1"))),
          List.of(poisoned("p", raw("{\"bad\":true}")), failed("f"),
              new DeadLetter("tired", null, raw("{}"), 2, 0, List.of(), exhausted, 99)),
          List.of(new RecentOutcome("old", done, 77, 8),
              new RecentOutcome("tired", exhausted, 99, 2),
              new RecentOutcome("c", new Outcome.Cancelled("c"), 100, 0)));

      DurableLog.Base read = DurableJson.decodeBase(DurableJson.encode(new DurableLog.Base(image,
          List.of())));

      assertThat(read.image()).isEqualTo(image);
    }

    @Test
    void A4_replyTo_is_stored_as_the_submitters_address_and_a_request_reply_submitter_as_none() {
      DurableRecord.Accepted withAddress = new DurableRecord.Accepted("a", 0, 1, null, null,
          new AddressResponder(null, "client.7"), 0, 0, null);
      DurableRecord.Accepted withoutAddress = new DurableRecord.Accepted("b", 0, 2, null, null,
          new AddressResponder(null, null), 0, 0, null);

      assertThat(roundTrip(withAddress))
          .extracting(r -> ((DurableRecord.Accepted) r).replyTo()).isEqualTo("client.7");
      assertThat(roundTrip(withoutAddress))
          .extracting(r -> ((DurableRecord.Accepted) r).replyTo()).isNull();
    }
  }

  /** Records are written per job: section 10's fields cost nothing when they are not used. */
  @Nested
  class Compactness {
    private static int occurrences(String text, String part) {
      int count = 0;
      for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
        count++;
      }
      return count;
    }

    @Test
    void A3_a_record_with_section_10s_fields_at_their_defaults_writes_none_of_them() {
      JsonObject accepted = DurableRecordJson.encode(new DurableRecord.Accepted("a", 0, 1, null, null,
          "r", 0, 0, null));
      JsonObject requeued = DurableRecordJson.encode(new DurableRecord.Requeued("a", 1, LOST));
      JsonObject answered = DurableRecordJson.encode(new DurableRecord.Answered("a", "r",
          new Outcome.Cancelled("a")));

      assertThat(accepted.fieldNames()).containsExactlyInAnyOrder("t", "job", "generated",
          "order", "payload", "key", "replyTo", "timeoutMs", "bytes", "target");
      assertThat(requeued.fieldNames()).containsExactlyInAnyOrder("t", "job", "order",
          "interruption");
      assertThat(answered.fieldNames()).containsExactlyInAnyOrder("t", "job", "replyTo",
          "outcome");
    }

    @Test
    void J6_a_remembered_answer_is_written_once() {
      RawJson payload = raw("{\"big\":\"" + "x".repeat(1_000) + "\"}");
      Outcome.Interrupted answer = new Outcome.Interrupted("a", payload, 1,
          new Interruption.AttemptsExhausted(1, LOST));

      JsonObject json = DurableRecordJson.encode(new DurableRecord.Answered("a", "r", answer,
          new RecentOutcome("a", answer, 5, payload.length())));

      assertThat(json.getJsonObject("remembered"))
          .isEqualTo(new JsonObject().put("at", 5L).put("bytes", (long) payload.length()));
      assertThat(occurrences(json.encode(), "x".repeat(1_000))).isEqualTo(1);
    }

    @Test
    void J5_a_dead_letters_payload_is_written_once_though_its_answer_hands_it_back() {
      RawJson payload = raw("{\"big\":\"" + "x".repeat(1_000) + "\"}");

      JsonObject json = DurableRecordJson.encode(new DurableRecord.DeadLettered(poisoned("p", payload)));

      assertThat(json.getJsonObject("answer").fieldNames()).doesNotContain("payload",
          "payloadJson");
      assertThat(occurrences(json.encode(), "x".repeat(1_000))).isEqualTo(1);
    }
  }

  /**
   * A rolling upgrade: a new coordinator reads the batches and checkpoints a coordinator of the
   * version before section 10 wrote (their text as that version's DurableJson wrote it).
   */
  @Nested
  class OlderVersions {
    @Test
    void A3_records_without_section_10s_fields_read_with_them_at_their_defaults() {
      String batch = "{\"id\":3,\"records\":["
          + "{\"t\":\"accepted\",\"job\":\"a\",\"generated\":0,\"order\":1,\"payload\":\"{\\\"x\\\":1}\","
          + "\"key\":null,\"replyTo\":\"r\",\"timeoutMs\":0,\"bytes\":7,\"target\":null},"
          + "{\"t\":\"requeued\",\"job\":\"a\",\"order\":0,\"interruption\":{\"kind\":"
          + "\"WORKER_STOPPED\",\"worker\":\"w-0\",\"exit\":\"NODE_LOST\",\"cause\":\"gone\"}},"
          + "{\"t\":\"answered\",\"job\":\"b\",\"replyTo\":\"r\",\"outcome\":{\"type\":"
          + "\"interrupted\",\"job\":\"b\",\"payload\":{\"y\":[1]},\"attempts\":1,\"reason\":"
          + "{\"kind\":\"POOL_STOPPED\"}}}],"
          + "\"delivered\":[\"c\"],\"checkpoint\":false,\"undelivered\":[]}";

      DurableGate.Batch read = DurableJson.decodeBatch(batch);

      DurableRecord.Accepted accepted = (DurableRecord.Accepted) read.records().get(0);
      assertThat(accepted.dueAt()).isZero();
      assertThat(accepted.retry()).isNull();
      assertThat(accepted.progressTimeoutMs()).isZero();
      assertThat(accepted.payload()).isEqualTo(raw("{\"x\":1}"));
      assertThat(read.records().get(1)).isEqualTo(new DurableRecord.Requeued("a", 0,
          new Interruption.WorkerStopped("w-0", Exit.NODE_LOST, "gone"), 0, 0, 0));
      DurableRecord.Answered answered = (DurableRecord.Answered) read.records().get(2);
      assertThat(answered.remembered()).isNull();
      assertThat(JsonValues.toJson(((Outcome.Interrupted) answered.outcome()).payload()))
          .isEqualTo(new JsonObject().put("y", new JsonArray().add(1)));
      assertThat(read.delivered()).containsExactly("c");
    }

    @Test
    void A3_an_image_without_section_10s_fields_reads_with_no_dead_letters_and_no_recent_outcomes() {
      String base = "{\"image\":{\"term\":4,\"generated\":2,\"jobs\":[{\"job\":\"job-2\","
          + "\"generated\":2,\"order\":1,\"payload\":\"[1]\",\"key\":null,\"replyTo\":null,"
          + "\"timeoutMs\":0,\"bytes\":3,\"target\":null,\"attempts\":1,\"worker\":\"w-0\","
          + "\"interruption\":null}],\"bindings\":[],\"hosts\":[]},\"undelivered\":[]}";

      DurableImage image = DurableJson.decodeBase(base).image();

      assertThat(image).isEqualTo(new DurableImage(4, 2, List.of(new DurableImage.JobImage(
          "job-2", 2, 1, raw("[1]"), null, null, 0, 3, null, 1, "w-0", null)), List.of(),
          List.of()));
      assertThat(image.dead()).isEmpty();
      assertThat(image.recent()).isEmpty();
    }
  }

  @Test
  void A3_every_field_of_a_job_image_is_written() {
    // A guard for the codec, not the format: a JobImage field added later must be written too.
    Set<String> written = DurableJson.encode(new DurableImage(1, 0, List.of(
            new DurableImage.JobImage("j", 1, 1, raw("1"), "k", "r", 1, 1, "w-0", 1, "w-0",
                LOST, 1, true, 1, 1, RETRY, "g", 2,
                new JsonObject().put("page", 1), 12, 300)), List.of(), List.of()))
        .getJsonArray("jobs").getJsonObject(0).fieldNames();
    Set<String> fields = Arrays.stream(DurableImage.JobImage.class.getRecordComponents())
        .map(c -> c.getName()).collect(Collectors.toSet());
    assertThat(written).containsExactlyInAnyOrderElementsOf(fields);
  }

  @Test
  void F1_F5_an_image_keeps_its_groups_overrides_and_pauses_and_its_jobs_groups_and_priorities() {
    DurableImage image = new DurableImage(3, 0, List.of(
        new DurableImage.JobImage("j", 0, 1, raw("1"), null, "r", 0, 1, null, 0, null, null, 0,
            false, 0, 0, null, "tenant-1", 0),
        new DurableImage.JobImage("plain", 0, 2, raw("2"), null, "r", 0, 1, null, 0, null, null)),
        List.of(), List.of(), List.of(), List.of(), List.of(
            new DurableImage.GroupImage("tenant-1", new GroupSettings(1, null, 2, null, null),
                null),
            new DurableImage.GroupImage("tenant-2", null, 55L),
            new DurableImage.GroupImage("tenant-3", null, null)), 12L);
    DurableLog.Base read = DurableJson.decodeBase(DurableJson.encode(new DurableLog.Base(image,
        List.of())));
    assertThat(read.image()).isEqualTo(image);
    DurableImage none = DurableImage.empty(1);
    assertThat(DurableJson.decodeBase(DurableJson.encode(new DurableLog.Base(none, List.of())))
        .image()).isEqualTo(none);
  }

  @Test
  void T2_a_job_images_checkpoint_round_trips_and_an_image_without_one_reads_none() {
    JsonObject checkpoint = new JsonObject().put("page", 4).put("cursor", "abc");
    DurableImage image = new DurableImage(2, 1, List.of(new DurableImage.JobImage("j", 1, 1,
        raw("1"), null, "r", 0, 1, null, 1, "w-0", null, 0, false, 0, 0, null, null, 5,
        checkpoint, 30)), List.of(), List.of());
    DurableImage read = DurableJson.decodeImage(DurableJson.encode(image));
    assertThat(read.jobs().get(0).checkpoint()).isEqualTo(checkpoint);
    assertThat(read.jobs().get(0).checkpointBytes()).isEqualTo(30);
    DurableImage none = DurableJson.decodeImage(DurableJson.encode(new DurableImage(2, 1,
        List.of(new DurableImage.JobImage("j", 1, 1, raw("1"), null, "r", 0, 1, null, 1, "w-0",
            null)), List.of(), List.of())));
    assertThat(none.jobs().get(0).checkpoint()).isNull();
    assertThat(none.jobs().get(0).checkpointBytes()).isZero();
  }

  @Test
  void T2_a_jobs_own_progress_timeout_round_trips_and_is_left_out_when_the_pools_applies() {
    DurableImage image = new DurableImage(2, 1, List.of(
        new DurableImage.JobImage("own", 1, 1, raw("1"), null, "r", 0, 1, null, 1, "w-0", null,
            0, false, 0, 0, null, null, 5, null, 0, 75),
        new DurableImage.JobImage("pool's", 0, 2, raw("2"), null, "r", 0, 1, null, 0, null,
            null)), List.of(), List.of());
    JsonObject json = DurableJson.encode(image);
    assertThat(json.getJsonArray("jobs").getJsonObject(0).getLong("progressTimeoutMs"))
        .isEqualTo(75);
    assertThat(json.getJsonArray("jobs").getJsonObject(1).fieldNames())
        .doesNotContain("progressTimeoutMs");
    assertThat(DurableJson.decodeImage(json)).isEqualTo(image);
    DurableRecord.Accepted accepted = new DurableRecord.Accepted("own", 0, 1, raw("1"), null,
        "r", 0, 1, null, 0, null, null, 5, 75);
    assertThat(DurableRecordJson.encode(accepted).getLong("progressTimeoutMs")).isEqualTo(75);
    assertThat(roundTrip(accepted)).isEqualTo(accepted);
  }
}
