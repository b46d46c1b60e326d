package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.RetryOverride;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Section 10's submit fields as every surface decodes them: {@code delayMs} (J4) and {@code
 * retry} (J3), from a decoded body (the bus) and from bytes (HTTP, a bus message holding text or
 * a buffer), carried unchanged when a node sends the submit on to the pool ({@link SubmitBody}),
 * and every malformed value refused as a {@link BadRequest} naming the field.
 */
class SubmitFieldsTest {

  /** The forms a body arrives in: decoded, as text, as a buffer. */
  static Stream<Function<String, Object>> forms() {
    return Stream.of(JsonObject::new, text -> text, Buffer::buffer);
  }

  private static Requests.Submit decode(Object body) {
    return RequestDecoder.submit(body, 64);
  }

  private static Requests.Submit decodeEachForm(String body) {
    Requests.Submit first = null;
    for (Function<String, Object> form : forms().toList()) {
      Requests.Submit submit = decode(form.apply(body));
      if (first != null) {
        assertThat(submit.delayMs()).isEqualTo(first.delayMs());
        assertThat(submit.retry()).isEqualTo(first.retry());
      }
      first = submit;
    }
    return first;
  }

  @Nested
  class Decoding {

    @Test
    void J4_delayMs_is_read_and_null_or_absent_is_no_delay() {
      assertThat(decodeEachForm("{\"payload\":1,\"delayMs\":250}").delayMs()).isEqualTo(250);
      assertThat(decodeEachForm("{\"payload\":1,\"delayMs\":0}").delayMs()).isZero();
      assertThat(decodeEachForm("{\"payload\":1,\"delayMs\":null}").delayMs()).isZero();
      assertThat(decodeEachForm("{\"payload\":1}").delayMs()).isZero();
      assertThat(decodeEachForm("{\"payload\":1,\"delayMs\":86400000000}").delayMs())
          .as("a long; the pool judges it against its maxDelayMs").isEqualTo(86_400_000_000L);
    }

    @Test
    void J3_retry_is_read_field_by_field() {
      assertThat(decodeEachForm("{\"payload\":1,\"retry\":{\"maxAttempts\":5}}").retry())
          .isEqualTo(RetryOverride.attempts(5));
      assertThat(decodeEachForm("{\"payload\":1,\"retry\":{\"maxAttempts\":2,\"backoff\":"
          + "{\"initialMs\":10,\"multiplier\":3,\"maxMs\":90,\"jitter\":0.5}}}").retry())
          .isEqualTo(new RetryOverride(2, new Backoff(10, 3.0, 90, 0.5)));
      assertThat(decodeEachForm("{\"payload\":1,\"retry\":{\"backoff\":{\"initialMs\":0}}}")
          .retry()).isEqualTo(new RetryOverride(0, new Backoff(0, 2.0, 60_000, 0.2)));
    }

    @Test
    void J3_a_backoff_given_in_part_takes_the_default_failure_backoff_for_the_rest() {
      assertThat(decodeEachForm("{\"payload\":1,\"retry\":{\"maxAttempts\":3,\"backoff\":"
          + "{\"initialMs\":500}}}").retry().backoff())
          .isEqualTo(new Backoff(500, 2.0, 60_000, 0.2));
      assertThat(decodeEachForm("{\"payload\":1,\"retry\":{\"maxAttempts\":3,\"backoff\":"
          + "{\"initialMs\":120000}}}").retry().backoff().maxMs())
          .as("maxMs at least initialMs").isEqualTo(120_000);
    }

    @Test
    void J3_retry_null_or_empty_is_the_pools() {
      assertThat(decodeEachForm("{\"payload\":1,\"retry\":null}").retry()).isNull();
      assertThat(decodeEachForm("{\"payload\":1,\"retry\":{}}").retry()).isNull();
      assertThat(decodeEachForm("{\"payload\":1}").retry()).isNull();
    }

    @Test
    void J3_an_override_replaces_only_what_it_names() {
      FailureRetry pool = new FailureRetry(4, new Backoff(100, 2.0, 1_000, 0.0));
      Backoff own = new Backoff(5, 1.0, 5, 0.0);
      assertThat(RetryOverride.attempts(2).resolve(pool))
          .isEqualTo(new FailureRetry(2, pool.backoff()));
      assertThat(new RetryOverride(0, own).resolve(pool)).isEqualTo(new FailureRetry(4, own));
      assertThat(new RetryOverride(9, own).resolve(pool)).isEqualTo(new FailureRetry(9, own));
    }

    @Test
    void J3_J4_the_raw_payload_stays_raw_beside_the_new_fields() {
      Requests.Submit submit = decode(Buffer.buffer(
          "{\"retry\":{\"maxAttempts\":2},\"payload\":{\"a\":[1,2]},\"delayMs\":5}"));
      assertThat(submit.payload()).isInstanceOf(RawJson.class);
      assertThat(((RawJson) submit.payload()).text()).isEqualTo("{\"a\":[1,2]}");
      assertThat(submit.delayMs()).isEqualTo(5);
      assertThat(submit.retry()).isEqualTo(RetryOverride.attempts(2));
    }
  }

  @Nested
  class Forwarding {

    @ParameterizedTest
    @MethodSource("dev.shepherd.runtime.wire.SubmitFieldsTest#forms")
    void J3_J4_a_submit_sent_on_to_the_pool_carries_its_delay_and_retry(
        Function<String, Object> form) {
      String body = "{\"job\":\"j\",\"payload\":{\"x\":1},\"delayMs\":700,\"retry\":"
          + "{\"maxAttempts\":3,\"backoff\":{\"initialMs\":20,\"multiplier\":1.5,\"maxMs\":80,"
          + "\"jitter\":0.1}}}";
      Requests.Submit arrived = decode(form.apply(body));

      Requests.Submit read = decode(SubmitBody.encode(arrived, "reply.here"));

      assertThat(read.delayMs()).isEqualTo(700);
      assertThat(read.retry()).isEqualTo(new RetryOverride(3, new Backoff(20, 1.5, 80, 0.1)));
      assertThat(read.replyTo()).isEqualTo("reply.here");
      assertThat(read.withJob("k").retry()).isEqualTo(read.retry());
    }

    @Test
    void J3_an_override_of_attempts_only_is_sent_without_a_backoff() {
      Requests.Submit submit = new Requests.Submit("j", 1, null, null, 0, 0, 0,
          RetryOverride.attempts(4));
      JsonObject sent = RequestDecoder.object(SubmitBody.encode(submit, null));
      assertThat(sent.getJsonObject("retry")).isEqualTo(new JsonObject().put("maxAttempts", 4));
      assertThat(sent.containsKey("delayMs")).as("no delay, no field").isFalse();
    }
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("delayMs negative", "\"delayMs\":-1", "delayMs"),
        Arguments.of("delayMs fractional", "\"delayMs\":1.5", "delayMs"),
        Arguments.of("delayMs text", "\"delayMs\":\"100\"", "delayMs"),
        Arguments.of("delayMs boolean", "\"delayMs\":true", "delayMs"),
        Arguments.of("delayMs object", "\"delayMs\":{}", "delayMs"),
        Arguments.of("delayMs array", "\"delayMs\":[100]", "delayMs"),
        Arguments.of("delayMs beyond a long", "\"delayMs\":100000000000000000000000", "delayMs"),
        Arguments.of("delayMs beyond any pool", "\"delayMs\":" + Long.MAX_VALUE, "delayMs"),
        Arguments.of("retry a number", "\"retry\":3", "retry"),
        Arguments.of("retry text", "\"retry\":\"always\"", "retry"),
        Arguments.of("retry array", "\"retry\":[3]", "retry"),
        Arguments.of("retry boolean", "\"retry\":true", "retry"),
        Arguments.of("retry maxAttempts 0", "\"retry\":{\"maxAttempts\":0}", "retry.maxAttempts"),
        Arguments.of("retry maxAttempts negative", "\"retry\":{\"maxAttempts\":-1}",
            "retry.maxAttempts"),
        Arguments.of("retry maxAttempts fractional", "\"retry\":{\"maxAttempts\":1.5}",
            "retry.maxAttempts"),
        Arguments.of("retry maxAttempts text", "\"retry\":{\"maxAttempts\":\"3\"}",
            "retry.maxAttempts"),
        Arguments.of("retry maxAttempts huge", "\"retry\":{\"maxAttempts\":1000001}",
            "retry.maxAttempts"),
        Arguments.of("retry unknown field", "\"retry\":{\"maxAttempts\":2,\"colour\":1}",
            "retry.colour"),
        Arguments.of("retry backoff a number", "\"retry\":{\"backoff\":5}", "retry.backoff"),
        Arguments.of("retry backoff text", "\"retry\":{\"backoff\":\"exp\"}", "retry.backoff"),
        Arguments.of("retry backoff multiplier 0.5",
            "\"retry\":{\"backoff\":{\"multiplier\":0.5}}", "retry.backoff.multiplier"),
        Arguments.of("retry backoff multiplier text",
            "\"retry\":{\"backoff\":{\"multiplier\":\"2\"}}", "retry.backoff.multiplier"),
        Arguments.of("retry backoff multiplier huge",
            "\"retry\":{\"backoff\":{\"multiplier\":1001}}", "retry.backoff.multiplier"),
        Arguments.of("retry backoff initialMs negative",
            "\"retry\":{\"backoff\":{\"initialMs\":-1}}", "retry.backoff.initialMs"),
        Arguments.of("retry backoff initialMs fractional",
            "\"retry\":{\"backoff\":{\"initialMs\":0.5}}", "retry.backoff.initialMs"),
        Arguments.of("retry backoff maxMs below initialMs",
            "\"retry\":{\"backoff\":{\"initialMs\":500,\"maxMs\":100}}", "retry.backoff.maxMs"),
        Arguments.of("retry backoff jitter 2", "\"retry\":{\"backoff\":{\"jitter\":2}}",
            "retry.backoff.jitter"),
        Arguments.of("retry backoff jitter negative", "\"retry\":{\"backoff\":{\"jitter\":-0.1}}",
            "retry.backoff.jitter"),
        Arguments.of("retry backoff unknown field", "\"retry\":{\"backoff\":{\"seed\":1}}",
            "retry.backoff.seed"),
        Arguments.of("retry nested too deep",
            "\"retry\":{\"backoff\":{\"a\":{\"b\":{\"c\":{}}}}}", "retry.backoff.a"),
        Arguments.of("retry twice", "\"retry\":{},\"retry\":{}", "retry"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void J3_J4_a_malformed_field_is_refused_naming_it_in_every_form(String name, String field,
      String named) {
    String body = "{\"payload\":1," + field + "}";
    forms().forEach(form -> {
      Object input = form.apply(body);
      if (name.endsWith("twice") && input instanceof JsonObject) {
        return; // a decoded object holds a field once: only bytes can say it twice
      }
      assertThatThrownBy(() -> decode(input)).as(name + " as " + input.getClass().getSimpleName())
          .isInstanceOf(BadRequest.class)
          .satisfies(e -> assertThat(e.getMessage()).matches(Pattern.quote(named) + "[.:].*"));
    });
  }

  @Test
  void J4_a_delay_beyond_the_pools_maxDelayMs_is_refused_naming_delayMs_and_the_limit() {
    PoolConfig pool = PoolConfig.parse(PoolFixture.demoPool("p", 1).put("maxDelayMs", 1_000), "");

    RequestDecoder.checkForPool(decode("{\"payload\":1,\"delayMs\":1000}"), pool);
    assertThatThrownBy(() -> RequestDecoder.checkForPool(
        decode("{\"payload\":1,\"delayMs\":1001}"), pool))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("delayMs:")
        .hasMessageContaining("1000")
        .hasMessageContaining("maxDelayMs");
  }

  @Test
  void J4_a_pool_that_allows_no_delay_refuses_any() {
    PoolConfig pool = PoolConfig.parse(PoolFixture.demoPool("p", 1).put("maxDelayMs", 0), "");

    RequestDecoder.checkForPool(decode("{\"payload\":1,\"delayMs\":0}"), pool);
    assertThatThrownBy(() -> RequestDecoder.checkForPool(
        decode("{\"payload\":1,\"delayMs\":1}"), pool))
        .isInstanceOf(BadRequest.class).hasMessageStartingWith("delayMs:");
  }
}
