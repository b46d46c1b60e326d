package dev.shepherd.cluster.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.RawJson;
import dev.shepherd.runtime.wire.RequestDecoder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Batches written straight as JSON text ({@link HostBatchWriter}) are the JSON {@link HostCodec}
 * builds, item for item, and decode back to the same batch; {@link HostCodec} reads a batch from
 * such a buffer and refuses a malformed one, saying why.
 */
class HostBatchWriterTest {
  private static final long TOKEN = (3L << 40) + 7;

  private static HostCommand.Batch everyCommand() {
    return new HostCommand.Batch(3, List.of(
        new HostCommand.Stop("h1/w-0", 1, Exit.TIMEOUT),
        new HostCommand.Deploy("h1/w-0", 2),
        new HostCommand.Assign("h1/w-0", 2, TOKEN, "j7", new JsonObject().put("n", 1)
            .put("nested", new JsonObject().put("list", new JsonArray().add(1.5).add(true))), 1,
            "k"),
        new HostCommand.Assign("h1/w-1", 1, 8, "j8", new JsonArray().add(1).add("two"), 2, null),
        new HostCommand.Assign("h1/w-1", 1, 9, "j9", "text with \"quotes\" and \u00e9", 1, null),
        new HostCommand.Assign("h1/w-1", 1, 10, "j10", null, 1, null),
        new HostCommand.Assign("h1/w-1", 1, 11, "j11", Long.MAX_VALUE, 1, null),
        new HostCommand.Cancel("h1/w-1", 1, 8),
        new HostCommand.Reregister(),
        new HostCommand.Reregister(4)));
  }

  private static HostReport.Batch everyReport() {
    return new HostReport.Batch("h1", List.of(
        new HostReport.Completion("h1/w-0", TOKEN, new JsonObject().put("echo", "hi"), null),
        new HostReport.Completion("h1/w-0", 8, null, new JobError(500, "boom \"x\"")),
        new HostReport.Completion("h1/w-0", 12, null,
            new JobError(500, "thrown", "java.lang.IllegalStateException")),
        new HostReport.Completion("h1/w-1", 9, new JsonArray().add(1), null),
        new HostReport.Completion("h1/w-1", 13, "timed", null, 987_654_321L),
        new HostReport.Completion("h1/w-1", 10, null, null),
        new HostReport.Completion("h1/w-1", 11, 42, null),
        new HostReport.RateLimited("h1/w-1", 13, 1_000),
        new HostReport.Created("h1/w-0", 2),
        new HostReport.CreationFailed("h1/w-0", 3, "no class"),
        new HostReport.CreationFailed("h1/w-0", 4, null),
        new HostReport.Stopped("h1/w-1", 1, Exit.CRASH, "java.lang.IllegalStateException: x"),
        new HostReport.Stopped("h1/w-1", 2, Exit.NORMAL, null)));
  }

  @Test
  void a_command_batch_of_every_kind_is_the_json_the_codec_builds_and_decodes_back() {
    HostCommand.Batch batch = everyCommand();

    Buffer written = HostBatchWriter.write(batch);

    assertThat(new JsonObject(written)).isEqualTo(HostCodec.encode(batch));
    assertThat(HostCodec.decodeCommands(written)).isEqualTo(batch);
  }

  @Test
  void a_report_batch_of_every_kind_is_the_json_the_codec_builds_and_decodes_back() {
    HostReport.Batch batch = everyReport();

    Buffer written = HostBatchWriter.write(batch);

    assertThat(new JsonObject(written)).isEqualTo(HostCodec.encode(batch));
    assertThat(HostCodec.decodeReports(written)).isEqualTo(batch);
  }

  @Test
  void empty_batches_and_a_payload_kept_as_raw_json_bytes() {
    assertThat(HostCodec.decodeCommands(HostBatchWriter.write(new HostCommand.Batch(0,
        List.of())))).isEqualTo(new HostCommand.Batch(0, List.of()));
    assertThat(HostCodec.decodeReports(HostBatchWriter.write(new HostReport.Batch("h1",
        List.of())))).isEqualTo(new HostReport.Batch("h1", List.of()));

    Object raw = RequestDecoder.submit(Buffer.buffer(
        "{\"payload\": {\"a\": [1, 2, {\"b\": null}]}}")).payload();
    assertThat(raw).isInstanceOf(RawJson.class);
    HostCommand.Batch batch = new HostCommand.Batch(1, List.of(
        new HostCommand.Assign("h1/w-0", 1, 5, "j", raw, 1, null)));

    HostCommand.Assign read = (HostCommand.Assign)
        HostCodec.decodeCommands(HostBatchWriter.write(batch)).items().get(0);
    assertThat(read.payload()).isEqualTo(new JsonObject("{\"a\": [1, 2, {\"b\": null}]}"));
  }

  @Test
  void random_batches_are_the_json_the_codec_builds() {
    long seed = new SplittableRandom().nextLong();
    SplittableRandom random = new SplittableRandom(seed);
    for (int n = 0; n < 200; n++) {
      List<HostCommand> commands = new ArrayList<>();
      List<HostReport> reports = new ArrayList<>();
      for (int i = random.nextInt(20); i > 0; i--) {
        String worker = "h" + random.nextInt(3) + "/w-" + random.nextInt(100);
        int incarnation = 1 + random.nextInt(Integer.MAX_VALUE);
        long assignment = random.nextLong(Long.MAX_VALUE);
        Object value = random.nextBoolean() ? new JsonObject().put("v", random.nextDouble())
            : random.nextBoolean() ? "s" + random.nextInt() : (Object) random.nextLong();
        commands.add(random.nextBoolean()
            ? new HostCommand.Assign(worker, incarnation, assignment, "job-" + i, value,
                1 + random.nextInt(5), random.nextBoolean() ? "key-" + i : null)
            : new HostCommand.Stop(worker, incarnation, Exit.values()[random.nextInt(
                Exit.values().length)]));
        reports.add(random.nextBoolean()
            ? new HostReport.Completion(worker, assignment, value, null)
            : new HostReport.Completion(worker, assignment, null,
                new JobError(random.nextInt(), "m" + random.nextInt(),
                    random.nextBoolean() ? "com.example.E" + random.nextInt() : null)));
      }
      HostCommand.Batch commandBatch = new HostCommand.Batch(random.nextLong(Long.MAX_VALUE),
          commands);
      HostReport.Batch reportBatch = new HostReport.Batch("h1", reports);
      assertThat(new JsonObject(HostBatchWriter.write(commandBatch)))
          .as("seed %d", seed).isEqualTo(HostCodec.encode(commandBatch));
      assertThat(new JsonObject(HostBatchWriter.write(reportBatch)))
          .as("seed %d", seed).isEqualTo(HostCodec.encode(reportBatch));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "not json", "[1, 2]", "{\"term\": 1, \"items\": [", "\"text\"",
      "{\"term\": 1, \"items\": [{\"op\": \"deploy\"}]}"})
  void a_buffer_that_is_no_command_batch_is_refused_naming_what_is_wrong(String text) {
    assertThatThrownBy(() -> HostCodec.decodeCommands(Buffer.buffer(text)))
        .isInstanceOf(BadRequest.class)
        .hasMessageMatching("(body: .*|items\\[0\\]\\.worker: is required.*)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "{", "[]", "{\"host\": \"h1\", \"items\": 3}",
      "{\"host\": \"h1\", \"items\": [{\"worker\": \"h1/w-0\"}]}"})
  void a_buffer_that_is_no_report_batch_is_refused_naming_what_is_wrong(String text) {
    assertThatThrownBy(() -> HostCodec.decodeReports(Buffer.buffer(text)))
        .isInstanceOf(BadRequest.class)
        .hasMessageMatching("(body: .*|items: .*|items\\[0\\]\\.assignment: .*)");
  }
}
