package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Backoff;
import dev.shepherd.runtime.RetryOverride;
import dev.shepherd.runtime.config.JobSettingsConfig;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.json.JsonObject;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A submit's {@code "retry"} (J3) as {@link RetryJson} reads, writes and checks it: every bound is
 * inclusive, what is written reads back the same, and every refusal names the field and says what
 * it was.
 */
class RetryJsonTest {
  private static final long MAX_MS = JobSettingsConfig.MAX_MS;
  private static final int MAX_ATTEMPTS = JobSettingsConfig.MAX_FAILURE_ATTEMPTS;

  /** The {@code "retry"} value of a body, parsed as a body is. */
  private static Object retry(String json) {
    return new JsonObject("{\"retry\":" + json + "}").getValue("retry");
  }

  private static RetryOverride decode(String json) {
    return RetryJson.decode(retry(json));
  }

  @Test
  void J3_retry_bounds_are_inclusive() {
    assertThat(decode("{\"maxAttempts\":1}")).isEqualTo(RetryOverride.attempts(1));
    assertThat(decode("{\"maxAttempts\":" + MAX_ATTEMPTS + "}"))
        .isEqualTo(RetryOverride.attempts(MAX_ATTEMPTS));
    assertThat(decode("{\"backoff\":{\"initialMs\":" + MAX_MS + ",\"maxMs\":" + MAX_MS
        + ",\"multiplier\":1,\"jitter\":0}}"))
        .isEqualTo(new RetryOverride(0, new Backoff(MAX_MS, 1.0, MAX_MS, 0.0)));
    assertThat(decode("{\"backoff\":{\"initialMs\":0,\"maxMs\":0,\"multiplier\":1000,"
        + "\"jitter\":1}}")).isEqualTo(new RetryOverride(0, new Backoff(0, 1000.0, 0, 1.0)));
  }

  @Test
  void J3_retry_override_reads_back_what_it_writes_and_writes_only_what_it_overrides() {
    Backoff backoff = new Backoff(20, 1.5, 80, 0.1);
    for (RetryOverride retry : new RetryOverride[] {RetryOverride.attempts(1),
        new RetryOverride(0, backoff), new RetryOverride(3, backoff)}) {
      assertThat(RetryJson.decode(new JsonObject(RetryJson.encode(retry).encode())))
          .isEqualTo(retry);
    }
    assertThat(RetryJson.encode(RetryOverride.attempts(1)))
        .isEqualTo(new JsonObject().put("maxAttempts", 1));
    assertThat(RetryJson.encode(new RetryOverride(0, backoff)).fieldNames())
        .containsExactly("backoff");
  }

  @Test
  void J3_retry_override_made_in_java_is_checked_as_a_body_is() {
    for (RetryOverride ok : new RetryOverride[] {null, RetryOverride.attempts(0),
        RetryOverride.attempts(1), RetryOverride.attempts(MAX_ATTEMPTS)}) {
      assertThatCode(() -> RetryJson.check(ok)).doesNotThrowAnyException();
    }
    assertThatThrownBy(() -> RetryJson.check(RetryOverride.attempts(-1)))
        .isInstanceOf(BadRequest.class).hasMessage("retry.maxAttempts: must be between 1 and "
            + MAX_ATTEMPTS + ", or 0 for the pool's (was -1)");
    assertThatThrownBy(() -> RetryJson.check(RetryOverride.attempts(MAX_ATTEMPTS + 1)))
        .isInstanceOf(BadRequest.class).hasMessageStartingWith("retry.maxAttempts: ")
        .hasMessageEndingWith("(was " + (MAX_ATTEMPTS + 1) + ")");
  }

  static Stream<Arguments> malformed() {
    String object = "must be an object {\"maxAttempts\": int, \"backoff\"?: {\"initialMs\", "
        + "\"multiplier\", \"maxMs\", \"jitter\"}}";
    String backoff = "must be an object {\"initialMs\", \"multiplier\", \"maxMs\", \"jitter\"}";
    String attempts = "retry.maxAttempts: must be ";
    return Stream.of(
        Arguments.of("\"always\"", "retry: " + object + " (was a string)"),
        Arguments.of("3", "retry: " + object + " (was a number 3)"),
        Arguments.of("true", "retry: " + object + " (was a boolean)"),
        Arguments.of("[3]", "retry: " + object + " (was an array)"),
        Arguments.of("{\"backoff\":{}, \"colour\":1}",
            "retry.colour: unknown field; expected [backoff, maxAttempts]"),
        Arguments.of("{\"maxAttempts\":0}", attempts + "between 1 and 1000000 (was 0)"),
        Arguments.of("{\"maxAttempts\":1000001}", attempts + "between 1 and 1000000 (was 1000001)"),
        Arguments.of("{\"maxAttempts\":{}}",
            attempts + "an integer between 1 and 1000000 (was an object)"),
        Arguments.of("{\"maxAttempts\":1.0}",
            attempts + "an integer between 1 and 1000000 (was a number 1.0)"),
        Arguments.of("{\"backoff\":\"exp\"}", "retry.backoff: " + backoff + " (was a string)"),
        Arguments.of("{\"backoff\":[]}", "retry.backoff: " + backoff + " (was an array)"),
        Arguments.of("{\"backoff\":{\"initial\":1}}", "retry.backoff.initial: unknown field; "
            + "expected [initialMs, jitter, maxMs, multiplier]"),
        Arguments.of("{\"backoff\":{\"initialMs\":-1}}",
            "retry.backoff.initialMs: must be between 0 and " + MAX_MS + " (was -1)"),
        Arguments.of("{\"backoff\":{\"maxMs\":" + (MAX_MS + 1) + "}}",
            "retry.backoff.maxMs: must be between 0 and " + MAX_MS + " (was " + (MAX_MS + 1) + ")"),
        Arguments.of("{\"backoff\":{\"multiplier\":0.5}}",
            "retry.backoff.multiplier: must be between 1.0 and 1000.0 (was 0.5)"),
        Arguments.of("{\"backoff\":{\"multiplier\":1000.5}}",
            "retry.backoff.multiplier: must be between 1.0 and 1000.0 (was 1000.5)"),
        Arguments.of("{\"backoff\":{\"multiplier\":\"x2\"}}",
            "retry.backoff.multiplier: must be a number between 1.0 and 1000.0 (was a string)"),
        Arguments.of("{\"backoff\":{\"jitter\":-0.1}}",
            "retry.backoff.jitter: must be between 0.0 and 1.0 (was -0.1)"),
        Arguments.of("{\"backoff\":{\"jitter\":1.5}}",
            "retry.backoff.jitter: must be between 0.0 and 1.0 (was 1.5)"),
        Arguments.of("{\"backoff\":{\"jitter\":false}}",
            "retry.backoff.jitter: must be a number between 0.0 and 1.0 (was a boolean)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void J3_a_malformed_retry_is_refused_naming_the_field_and_what_it_was(String json,
      String message) {
    assertThatThrownBy(() -> decode(json)).isInstanceOf(BadRequest.class).hasMessage(message);
  }
}
