package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.HeapCost;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A submit read from its bytes ({@link RequestDecoder#submit(Object, int)} on text or a buffer):
 * the payload keeps its exact bytes, counts its length, decodes to what the whole body would have,
 * and is refused past the pool's depth before anything is built.
 */
class RawSubmitReaderTest {

  static Stream<Arguments> payloads() {
    return Stream.of(
        Arguments.of("{\"payload\":1}", "1"),
        Arguments.of("{\"payload\": -1.5e3 }", "-1.5e3"),
        Arguments.of("{ \"job\" : \"j\" , \"payload\" :\t\"a \\\"quoted\\\" \\\\ text\" ,\n"
            + "  \"key\": \"k\" }", "\"a \\\"quoted\\\" \\\\ text\""),
        Arguments.of("{\"payload\":true,\"job\":\"j\"}", "true"),
        Arguments.of("{\"payload\":{\"a\":[1,{\"b\":null}],\"c\":\"ünïcødé ✓ 😀\"}}",
            "{\"a\":[1,{\"b\":null}],\"c\":\"ünïcødé ✓ 😀\"}"),
        Arguments.of("{\"payload\":[ ] }", "[ ]"),
        Arguments.of("{\"payload\":\"\\u2028,\\n\"  ,\"timeoutMs\":5}", "\"\\u2028,\\n\""),
        Arguments.of("{\"payload\":[{},{},{}]\r\n}", "[{},{},{}]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("payloads")
  void the_payload_keeps_its_exact_bytes_and_decodes_like_the_whole_body(String body,
      String raw) {
    for (Object form : new Object[] {body, Buffer.buffer(body)}) {
      Requests.Submit submit = RequestDecoder.submit(form, 64);

      RawJson payload = (RawJson) submit.payload();
      assertThat(payload.text()).isEqualTo(raw);
      assertThat(submit.bytes()).isEqualTo(raw.getBytes(java.nio.charset.StandardCharsets.UTF_8)
          .length);
      assertThat(payload.decode()).isEqualTo(new JsonObject(body).getValue("payload"));
    }
  }

  @Test
  void the_other_fields_are_read_as_before() {
    Requests.Submit submit = RequestDecoder.submit(
        "{\"job\":\"j1\",\"key\":\"k\",\"replyTo\":\"r\",\"timeoutMs\":250,\"payload\":{}}", 64);
    assertThat(submit).isEqualTo(new Requests.Submit("j1", submit.payload(), "k", "r", 250, 2));
  }

  @Test
  void a_null_payload_is_a_null_payload() {
    Requests.Submit submit = RequestDecoder.submit("{\"payload\":null}", 64);
    assertThat(submit.payload()).isNull();
    assertThat(submit.bytes()).isZero();
  }

  @Test
  void a_payload_at_the_depth_limit_is_accepted_and_one_level_deeper_is_refused() {
    assertThat(RequestDecoder.submit(body(nested(64)), 64).payload()).isInstanceOf(RawJson.class);
    assertThatThrownBy(() -> RequestDecoder.submit(body(nested(65)), 64))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("payload: nested more than 64 levels deep")
        .hasMessageContaining("maxPayloadDepth");
    assertThatThrownBy(() -> RequestDecoder.submit(body(nested(999)), 64))
        .hasMessageStartingWith("payload:");
    assertThatThrownBy(() -> RequestDecoder.submit(body(nested(5000)), 500))
        .hasMessageStartingWith("payload: nested more than 500 levels deep");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", " ", "null", "[]", "1", "\"text\"", "{", "{\"payload\":1", "{\"payload\":1}}",
      "{\"payload\":1} x", "{\"payload\":[1,}", "{\"payload\":\"unterminated}",
      "{\"payload\":[1] \"job\":\"j\"}", "{payload:1}", "{\"payload\":\"\u0001\"}",
      "{\"payload\":01}", "{\"payload\":[1,1,1,]}"})
  void malformed_bodies_are_refused_naming_the_body(String body) {
    assertThatThrownBy(() -> RequestDecoder.submit(body, 64))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("body");
  }

  @Test
  void envelope_fields_are_checked_as_before_and_may_appear_once() {
    assertThatThrownBy(() -> RequestDecoder.submit("{\"payload\":1,\"payload\":2}", 64))
        .hasMessageStartingWith("payload: appears twice");
    assertThatThrownBy(() -> RequestDecoder.submit("{\"payload\":1,\"key\":[\"k\"]}", 64))
        .hasMessage("key: must be a string (was an array)");
    assertThatThrownBy(() -> RequestDecoder.submit("{\"payload\":1,\"job\":{\"a\":1}}", 64))
        .hasMessage("job: must be a string (was an object)");
    assertThatThrownBy(() -> RequestDecoder.submit("{\"payload\":1,\"timeoutMs\":1.5}", 64))
        .hasMessageStartingWith("timeoutMs:");
    assertThatThrownBy(() -> RequestDecoder.submit("{\"job\":\"j\"}", 64))
        .hasMessageStartingWith("payload: is required");
    assertThatThrownBy(() -> RequestDecoder.submit("{\"payload\":1,\"x\":[[[]]]}", 64))
        .hasMessageStartingWith("x: unknown field");
  }

  @Test
  void a_body_in_utf16_is_refused() {
    byte[] utf16 = "{\"payload\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_16BE);
    assertThatThrownBy(() -> RequestDecoder.submit(Buffer.buffer(utf16), 64))
        .hasMessageStartingWith("body");
  }

  @Test
  void a_one_mebibyte_array_of_empty_objects_counts_its_bytes_as_the_heap_they_take() {
    StringBuilder array = new StringBuilder("[");
    while (array.length() < (1 << 20) - 3) {
      array.append("{},");
    }
    array.setLength(array.length() - 1);
    array.append(']');
    Requests.Submit submit = RequestDecoder.submit(body(array.toString()), 64);
    assertThat(submit.bytes()).isEqualTo(HeapCost.ofBytes(array.length()))
        .isBetween((long) array.length(), 2L * array.length() + 4096);
    assertThat(((RawJson) submit.payload()).decode()).isInstanceOf(JsonArray.class);
    assertThat(Json.decodeValue(((RawJson) submit.payload()).text())).isEqualTo(
        ((RawJson) submit.payload()).decode());
  }

  private static String nested(int depth) {
    return "[".repeat(depth) + "]".repeat(depth);
  }

  private static String body(String payload) {
    return "{\"job\":\"deep\",\"payload\":" + payload + "}";
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"{", "{\"payload\":", "{\"payload\":[1,}", "{\"payload\":1,,}", "nul",
      "{\"payload\":\"\\x\"}", "{\"payload\":1} x"})
  void a_body_that_is_not_json_says_where_without_the_parser_s_internals(String body) {
    for (Object form : new Object[] {body, Buffer.buffer(body)}) {
      assertThatThrownBy(() -> RequestDecoder.submit(form, 64))
          .isInstanceOf(BadRequest.class)
          .hasMessageStartingWith("body: ")
          .hasMessageNotContaining("Source")
          .hasMessageNotContaining("REDACTED")
          .hasMessageNotContaining("StreamReadFeature");
    }
  }
}
