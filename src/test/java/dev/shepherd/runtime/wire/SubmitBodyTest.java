package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A decoded submit sent on to a pool over the bus ({@link SubmitBody}): what the pool reads back
 * is the same submit, a payload still in its bytes is carried byte for byte, and the replyTo is the
 * one the sender chose.
 */
class SubmitBodyTest {

  static Stream<String> bodies() {
    return Stream.of(
        "{\"payload\":1}",
        "{\"job\":\"j \\\"1\\\"\",\"payload\":{\"a\":[1,{\"b\":null}],\"c\":\"ünïcødé ✓\"}}",
        "{\"payload\":[ ],\"key\":\"k\",\"timeoutMs\":5}",
        "{\"payload\":\"text\",\"job\":\"j\",\"key\":\"k/1\"}",
        "{\"payload\":null}");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodies")
  void a_raw_payload_goes_on_byte_for_byte_and_reads_back_as_the_same_submit(String body) {
    Requests.Submit arrived = RequestDecoder.submit(Buffer.buffer(body), 64);

    for (String replyTo : new String[] {null, "shepherd.jobs.discard"}) {
      Object sent = SubmitBody.encode(arrived, replyTo);
      Requests.Submit read = RequestDecoder.submit(sent, 64);

      assertThat(read.job()).isEqualTo(arrived.job());
      assertThat(read.key()).isEqualTo(arrived.key());
      assertThat(read.timeoutMs()).isEqualTo(arrived.timeoutMs());
      assertThat(read.replyTo()).isEqualTo(replyTo);
      assertThat(read.bytes()).isEqualTo(arrived.bytes());
      if (arrived.payload() instanceof RawJson raw) {
        assertThat(sent).isInstanceOf(Buffer.class);
        assertThat(((RawJson) read.payload()).text()).isEqualTo(raw.text());
      } else {
        assertThat(read.payload()).isEqualTo(arrived.payload());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bodies")
  void a_decoded_payload_goes_as_a_json_object(String body) {
    JsonObject json = new JsonObject(body);
    Requests.Submit arrived = RequestDecoder.submit(json, 64);

    Object sent = SubmitBody.encode(arrived, null);

    assertThat(sent).isInstanceOf(JsonObject.class);
    assertThat(((JsonObject) sent).getValue("payload")).isEqualTo(json.getValue("payload"));
    assertThat(RequestDecoder.submit(sent, 64).job()).isEqualTo(arrived.job());
  }
}
