package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a highly available pool writes to the cluster reads back as it was (A3): every record,
 * images and checkpoints; payloads come back as the JSON they were, replyTo as the address the
 * submitter gave (a request/reply submitter's as none).
 */
class DurableJsonTest {
  private static final Interruption LOST = new Interruption.WorkerStopped("h1/w-0", Exit.NODE_LOST,
      "node left");

  private static RawJson raw(String text) {
    return new RawJson(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void A3_every_record_of_a_batch_reads_back_as_it_was_written() {
    List<DurableRecord> records = List.of(
        new DurableRecord.Accepted("job-7", 7, 12, raw("{\"a\":[1,2,{\"b\":null}]}"), "k",
            "client.answers", 500, 22, "w-1"),
        new DurableRecord.Accepted("mine", 0, 13, null, null, null, 0, 0, null),
        new DurableRecord.Assigned("job-7", "w-1", 2),
        new DurableRecord.Requeued("job-7", 3, LOST),
        new DurableRecord.Requeued("job-8", 4, new Interruption.AttemptsExhausted(3, LOST)),
        new DurableRecord.Answered("job-7", "client.answers",
            new Outcome.Completed("job-7", new JsonObject().put("x", 1), "w-1", 2)),
        new DurableRecord.Answered("job-9", null,
            new Outcome.Failed("job-9", new JobError(500, "boom"), "w-0", 1)),
        new DurableRecord.Answered("job-10", "a", new Outcome.Cancelled("job-10")),
        new DurableRecord.Bound("k", "w-1", true),
        new DurableRecord.Unbound("k2"),
        new DurableRecord.HostKnown("h1", "node-1", List.of("h1/w-0", "h1/w-1")));
    DurableGate.Batch batch = new DurableGate.Batch(42, records, List.of("job-3", "job-4"), false,
        List.of());

    DurableGate.Batch read = DurableJson.decodeBatch(DurableJson.encode(batch));

    assertThat(read).isEqualTo(batch);
  }

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
    assertThat(read.undelivered()).hasSize(1);
    Outcome.Interrupted answer = (Outcome.Interrupted) read.undelivered().get(0).outcome();
    assertThat(answer.reason()).isEqualTo(new Interruption.AttemptsExhausted(3, LOST));
    assertThat(JsonValues.toJson(answer.payload())).isEqualTo(new JsonObject().put("p", 1));
  }

  @Test
  void A4_replyTo_is_stored_as_the_submitters_address_and_a_request_reply_submitter_as_none() {
    DurableRecord.Accepted withAddress = new DurableRecord.Accepted("a", 0, 1, null, null,
        new AddressResponder(null, "client.7"), 0, 0, null);
    DurableRecord.Accepted withoutAddress = new DurableRecord.Accepted("b", 0, 2, null, null,
        new AddressResponder(null, null), 0, 0, null);

    assertThat(DurableJson.decodeRecord(DurableJson.encode(withAddress)))
        .extracting(r -> ((DurableRecord.Accepted) r).replyTo()).isEqualTo("client.7");
    assertThat(DurableJson.decodeRecord(DurableJson.encode(withoutAddress)))
        .extracting(r -> ((DurableRecord.Accepted) r).replyTo()).isNull();
  }
}
