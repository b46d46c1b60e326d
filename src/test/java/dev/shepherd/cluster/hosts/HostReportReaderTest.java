package dev.shepherd.cluster.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The common batch of completions read from the bytes ({@link HostReportReader}) is exactly what
 * decoding it whole gives; anything it does not read exactly is left to the whole decoding.
 */
class HostReportReaderTest {

  /** What the codec gives when it decodes the text whole (the path taken before the reader). */
  private static HostReport.Batch whole(Buffer text) {
    return HostCodec.decodeReports(new JsonObject(text));
  }

  @Test
  void completions_with_every_kind_of_result_read_as_decoding_them_whole_does() {
    List<HostReport> items = new ArrayList<>();
    Object[] results = {new JsonObject().put("echo", "hi").put("n", 1)
        .put("nested", new JsonObject().put("list", new JsonArray().add(1).add(2L << 40)
            .add(new JsonObject().put("deep", true)))),
        new JsonArray().add("a").addNull().add(1.5), "text", 7, 1L << 40,
        new BigInteger("123456789012345678901234567890"), 2.25, true, false, null,
        new JsonObject()};
    for (int i = 0; i < results.length; i++) {
      items.add(new HostReport.Completion("h1/w-" + (i % 3), 1000L + i, results[i], null,
          i % 2 == 0 ? HostReport.Completion.UNMEASURED : 12_345L * i));
    }
    Buffer text = HostBatchWriter.write(new HostReport.Batch("h1", items));

    HostReport.Batch read = HostReportReader.completions(text);

    assertThat(read).isNotNull().isEqualTo(whole(text));
    assertThat(HostCodec.decodeReports(text)).isEqualTo(read);
    assertThat(read.items()).hasSize(results.length);
    assertThat(((HostReport.Completion) read.items().get(0)).result())
        .isInstanceOf(JsonObject.class).isEqualTo(results[0]);
    assertThat(((HostReport.Completion) read.items().get(1)).result())
        .isInstanceOf(JsonArray.class).isEqualTo(results[1]);
  }

  @Test
  void a_batch_with_anything_but_completions_with_results_is_left_to_the_whole_decoding() {
    List<HostReport> others = List.of(
        new HostReport.Completion("h1/w-0", 1, null, new JobError(500, "failed", null), 5),
        new HostReport.RateLimited("h1/w-0", 2, 100),
        new HostReport.Created("h1/w-1", 3),
        new HostReport.Stopped("h1/w-1", 3, Exit.CRASH, "boom"));
    for (HostReport other : others) {
      Buffer text = HostBatchWriter.write(new HostReport.Batch("h1", List.of(
          new HostReport.Completion("h1/w-0", 9, "ok", null, 1), other)));

      assertThat(HostReportReader.completions(text)).as("%s", other).isNull();
      assertThat(HostCodec.decodeReports(text)).isEqualTo(whole(text));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"items\":[],\"host\":\"h1\"}",
      "{\"host\":\"h 1\",\"items\":[]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"assignment\":1}]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"assignment\":1,\"result\":1,\"x\":0}]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"worker\":\"h1/w-1\",\"assignment\":1,"
          + "\"result\":1}]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"\",\"assignment\":1,\"result\":1}]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"assignment\":-1,\"result\":1}]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"assignment\":1.0,\"result\":1}]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"assignment\":"
          + "99999999999999999999,\"result\":1}]}",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"assignment\":1,\"result\":1,"
          + "\"runNanos\":\"5\"}]}",
      "{\"host\":\"h1\",\"items\":[1]}",
      "{\"host\":\"h1\",\"items\":[],\"more\":1}",
      "{\"host\":\"h1\",\"items\":[]} trailing",
      "{\"host\":\"h1\",\"items\":[{\"worker\":\"h1/w-0\",\"assignment\":1,\"result\":"})
  void what_it_does_not_read_exactly_is_left_to_the_whole_decoding(String text) {
    assertThat(HostReportReader.completions(Buffer.buffer(text))).isNull();
  }

  @Test
  void an_empty_batch_reads_as_one() {
    Buffer text = HostBatchWriter.write(new HostReport.Batch("h1", List.of()));
    assertThat(HostReportReader.completions(text)).isEqualTo(whole(text));
  }
}
