package dev.shepherd.cluster.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
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
 * The common batch of assignments read from the bytes ({@link HostCommandReader}) is exactly what
 * decoding it whole gives; anything it does not read exactly is left to the whole decoding.
 */
class HostCommandReaderTest {

  /** What the codec gives when it decodes the text whole (the path taken before the reader). */
  private static HostCommand.Batch whole(Buffer text) {
    return HostCodec.decodeCommands(new JsonObject(text));
  }

  @Test
  void assignments_with_every_kind_of_payload_and_optional_field_read_as_decoding_them_whole_does() {
    Object[] payloads = {new JsonObject().put("echo", "hi").put("spinNanos", 0L)
        .put("nested", new JsonObject().put("list", new JsonArray().add(1).add(2L << 40))),
        new JsonArray().add("a").addNull().add(1.5), "text", 7, 1L << 40,
        new BigInteger("123456789012345678901234567890"), 2.25, true, null, new JsonObject()};
    List<HostCommand> items = new ArrayList<>();
    for (int i = 0; i < payloads.length; i++) {
      items.add(new HostCommand.Assign("h1/w-" + (i % 3), 1 + i, 1000L + i, "job-" + i,
          payloads[i], 1 + i % 2, i % 2 == 0 ? null : "key-" + i,
          i % 3 == 0 ? new JsonObject().put("step", i) : null,
          i % 4 == 0 ? "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" : null,
          i % 8 == 0 ? "vendor=value" : null));
    }
    Buffer text = HostBatchWriter.write(new HostCommand.Batch(7, items));

    HostCommand.Batch read = HostCommandReader.assignments(text);

    assertThat(read).isNotNull().isEqualTo(whole(text));
    assertThat(HostCodec.decodeCommands(text)).isEqualTo(read);
    assertThat(((HostCommand.Assign) read.items().get(0)).payload())
        .isInstanceOf(JsonObject.class).isEqualTo(payloads[0]);
  }

  @Test
  void a_batch_with_any_other_command_is_left_to_the_whole_decoding() {
    List<HostCommand> others = List.of(new HostCommand.Deploy("h1/w-0", 2),
        new HostCommand.Stop("h1/w-0", 1, Exit.TIMEOUT), new HostCommand.Cancel("h1/w-0", 1, 5),
        new HostCommand.Reregister(3));
    for (HostCommand other : others) {
      Buffer text = HostBatchWriter.write(new HostCommand.Batch(1, List.of(
          new HostCommand.Assign("h1/w-0", 1, 9, "j", "p", 1, null), other)));

      assertThat(HostCommandReader.assignments(text)).as("%s", other).isNull();
      assertThat(HostCodec.decodeCommands(text)).isEqualTo(whole(text));
    }
  }

  private static final String OK = "\"op\":\"assign\",\"worker\":\"h1/w-0\",\"incarnation\":1,"
      + "\"assignment\":1,\"job\":\"j\",\"payload\":{},\"attempt\":1";

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"items\":[],\"term\":1}",
      "{\"term\":-1,\"items\":[]}",
      "{\"term\":1,\"items\":[{" + OK + ",\"x\":1}]}",
      "{\"term\":1,\"items\":[{" + OK + ",\"job\":\"k\"}]}",
      "{\"term\":1,\"items\":[{" + OK + ",\"key\":null}]}",
      "{\"term\":1,\"items\":[{" + OK + ",\"key\":\"\"}]}",
      "{\"term\":1,\"items\":[{" + OK + ",\"tracestate\":5}]}",
      "{\"term\":1,\"items\":[{\"op\":\"assign\",\"worker\":\"h1/w-0\",\"incarnation\":0,"
          + "\"assignment\":1,\"job\":\"j\",\"payload\":{},\"attempt\":1}]}",
      "{\"term\":1,\"items\":[{\"op\":\"assign\",\"worker\":\"h1/w-0\",\"incarnation\":1,"
          + "\"assignment\":1,\"job\":\"j\",\"attempt\":1}]}",
      "{\"term\":1,\"items\":[{\"op\":\"assign\",\"worker\":\"h1/w-0\",\"incarnation\":1,"
          + "\"assignment\":1,\"job\":\"j\",\"payload\":1,\"attempt\":3000000000}]}",
      "{\"term\":1,\"items\":[{\"worker\":\"h1/w-0\",\"incarnation\":1,"
          + "\"assignment\":1,\"job\":\"j\",\"payload\":1,\"attempt\":1}]}",
      "{\"term\":1,\"items\":[{" + OK + "}],\"more\":1}",
      "{\"term\":1,\"items\":[{" + OK + "}]} trailing",
      "{\"term\":1,\"items\":[{" + OK})
  void what_it_does_not_read_exactly_is_left_to_the_whole_decoding(String text) {
    assertThat(HostCommandReader.assignments(Buffer.buffer(text))).isNull();
  }

  @Test
  void a_well_formed_assignment_in_another_field_order_reads_too() {
    Buffer text = Buffer.buffer("{\"term\":2,\"items\":[{\"payload\":[1],\"attempt\":2,"
        + "\"job\":\"j\",\"assignment\":4,\"incarnation\":3,\"worker\":\"h1/w-0\","
        + "\"op\":\"assign\"}]}");
    assertThat(HostCommandReader.assignments(text)).isNotNull().isEqualTo(whole(text));
  }
}
