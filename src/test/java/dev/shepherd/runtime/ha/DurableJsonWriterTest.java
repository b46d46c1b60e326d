package dev.shepherd.runtime.ha;

import static dev.shepherd.runtime.ha.DurableJsonTest.everyKind;
import static dev.shepherd.runtime.ha.DurableJsonTest.failed;
import static dev.shepherd.runtime.ha.DurableJsonTest.poisoned;
import static dev.shepherd.runtime.ha.DurableJsonTest.raw;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.Counters;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Exit;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSize;
import dev.shepherd.core.RateLimit;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.wire.AddressResponder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The streaming writer of a durable pool's batches and bases (A3) writes the very text {@link
 * DurableJson}'s encoders write, byte for byte, for every kind of record, every field of an image
 * and the traces of T1, so that everything {@link DurableJsonTest} shows of that text holds for
 * what a leader writes; and it reads back as it was.
 */
class DurableJsonWriterTest {
  private static final Interruption.WorkerStopped LOST =
      new Interruption.WorkerStopped("h1/w-0", Exit.NODE_LOST, "node left");
  private static final Counters TOTALS = new Counters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
      14, 15);
  private static final String PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  private static String written(DurableGate.Batch batch, Map<String, JournalTrace> traces) {
    return new String(DurableJsonWriter.write(batch, traces), StandardCharsets.UTF_8);
  }

  private static String written(DurableLog.Base base, Map<String, JournalTrace> traces) {
    return new String(DurableJsonWriter.write(base, traces), StandardCharsets.UTF_8);
  }

  /** Every kind of record, and answers that answer with every kind of outcome. */
  private static DurableGate.Batch everyRecord(Counters counters) {
    List<DurableRecord> records = new java.util.ArrayList<>(everyKind());
    records.add(new DurableRecord.Accepted("a-traced", 3, 20, raw("{\"k\":[1,\"\\u00e9\"]}"),
        "key", new AddressResponder(null, "client.7"), 100, 9, null));
    records.add(new DurableRecord.Answered("rej", "r", new Outcome.Rejected("rej",
        dev.shepherd.core.RejectionReason.BACKLOG_FULL, raw("[1]"), "full")));
    records.add(new DurableRecord.Answered("odd", "r", new Outcome.Completed("odd",
        "line\n\"quoted\" \u0001 \u00e9 \ud83d\ude00", "w-0", 1)));
    records.add(new DurableRecord.Answered("nothing", null,
        new Outcome.Completed("nothing", null, "w-0", 1)));
    return new DurableGate.Batch(42, records, List.of("job-3", "job-4"), false,
        List.of(new DurableRecord.Answered("u", "r.9", new Outcome.Cancelled("u"))), counters);
  }

  private static DurableImage everyField() {
    Outcome.Completed done = new Outcome.Completed("old", new JsonObject().put("x",
        new JsonArray().add(1).add("y")), "w-0", 1);
    Outcome.Interrupted exhausted = new Outcome.Interrupted("tired", raw("{}"), 3,
        new Interruption.AttemptsExhausted(3, LOST));
    return new DurableImage(8, 40,
        List.of(
            new DurableImage.JobImage("j", 1, 1, raw("1"), "k", "r", 1, 1, "w-0", 1, "w-0",
                LOST, 1, true, 1, 1, new FailureRetry(4, new Backoff(250, 2.5, 8_000, 0.15)),
                "g", 2, new JsonObject().put("page", 1), 12, 300),
            new DurableImage.JobImage("plain", 0, 2, raw("2"), null, null, 0, 1, null, 0, null,
                null),
            new DurableImage.JobImage("traced", 0, 3, null, null,
                new AddressResponder(null, "client.8"), 0, 0, null, 0, null, null)),
        List.of(new DurableImage.BindingImage("k", "w-1", true),
            new DurableImage.BindingImage("k2", "w-0", false)),
        List.of(new DurableImage.HostImage("h1", "node-1", List.of("h1/w-0", "h1/w-1"))),
        List.of(poisoned("p", raw("{\"bad\":true}")), failed("f"),
            new DeadLetter("tired", null, raw("{}"), 2, 0, List.of(), exhausted, 99)),
        List.of(new RecentOutcome("old", done, 77, 8),
            new RecentOutcome("tired", exhausted, 99, 2),
            new RecentOutcome("c", new Outcome.Cancelled("c"), 100, 0)),
        List.of(new DurableImage.GroupImage("tenant-1", new GroupSettings(1, null, 2,
                new RateLimit(5, 1_000), null), null),
            new DurableImage.GroupImage("tenant-2", null, 55L)),
        12L, new PoolSize(6, 2));
  }

  private static Map<String, JournalTrace> traces() {
    Map<String, JournalTrace> traces = new HashMap<>();
    traces.put("a-traced", new JournalTrace(PARENT, "vendor=opaque", 1_700_000_000_000L));
    traces.put("job-7", new JournalTrace(PARENT, null, 0));
    traces.put("traced", new JournalTrace(PARENT, "v=1", 5));
    return traces;
  }

  @Test
  void A3_a_batch_of_every_kind_of_record_is_the_text_the_tree_encoder_writes() {
    for (Counters counters : new Counters[] {TOTALS, null}) {
      DurableGate.Batch batch = everyRecord(counters);
      assertThat(written(batch, Map.of())).isEqualTo(DurableJson.encode(batch, Map.of()));
      assertThat(DurableJson.decodeBatch(written(batch, Map.of())).records())
          .isEqualTo(DurableJson.decodeBatch(DurableJson.encode(batch)).records());
    }
  }

  @Test
  void A3_a_checkpoint_batch_and_an_empty_one_are_the_same_text_too() {
    DurableGate.Batch checkpoint = new DurableGate.Batch(1, List.of(), List.of(), true,
        List.of(new DurableRecord.Answered("w", "r", new Outcome.Completed("w", 1, "w-0", 1))),
        TOTALS);
    DurableGate.Batch empty = new DurableGate.Batch(7, List.of(), List.of(), false, List.of());
    assertThat(written(checkpoint, Map.of())).isEqualTo(DurableJson.encode(checkpoint));
    assertThat(written(empty, Map.of())).isEqualTo(DurableJson.encode(empty));
  }

  @Test
  void T1_accepted_records_carry_their_jobs_traces_as_the_tree_encoder_writes_them() {
    DurableGate.Batch batch = everyRecord(TOTALS);
    assertThat(written(batch, traces())).isEqualTo(DurableJson.encode(batch, traces()));
    Map<String, JournalTrace> read = new HashMap<>();
    DurableJson.decodeBatch(written(batch, traces()), read);
    assertThat(read).containsEntry("a-traced", traces().get("a-traced"))
        .containsEntry("job-7", traces().get("job-7"));
  }

  @Test
  void A3_a_base_with_every_field_of_an_image_is_the_text_the_tree_encoder_writes() {
    DurableLog.Base base = new DurableLog.Base(everyField(), List.of(new DurableRecord.Answered(
        "j", "r.2", new Outcome.Interrupted("j", raw("{\"p\":1}"), 3,
            new Interruption.AttemptsExhausted(3, LOST)))), TOTALS);
    assertThat(written(base, traces())).isEqualTo(DurableJson.encode(base, traces()));
    DurableLog.Base read = DurableJson.decodeBase(written(base, Map.of()));
    // A responder is stored as its address, and reads back as that string.
    assertThat(read.image()).isEqualTo(DurableJson.decodeBase(DurableJson.encode(base)).image());
    assertThat(read.image().jobs().get(2).replyTo()).isEqualTo("client.8");
    assertThat(read.image().recent()).isEqualTo(everyField().recent());
    assertThat(read.undelivered()).isEqualTo(base.undelivered());
    assertThat(read.counters()).isEqualTo(TOTALS);
  }

  @Test
  void A3_an_empty_image_without_totals_is_the_same_text_too() {
    DurableLog.Base base = DurableLog.Base.empty(3);
    assertThat(written(base, Map.of())).isEqualTo(DurableJson.encode(base));
  }
}
