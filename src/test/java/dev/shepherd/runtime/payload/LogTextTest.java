package dev.shepherd.runtime.payload;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

  @Test
  void quotes_and_escapes_what_could_forge_a_line() {
    assertThat(LogText.quote("j1\n12:00:00 INFO forged")).isEqualTo("\"j1\\n12:00:00 INFO forged\"");
    assertThat(LogText.quote("a\rb\u2028c\u001b[31m\"q\"\\"))
        .isEqualTo("\"a\\rb\\u2028c\\u001b[31m\\\"q\\\"\\\\\"");
    assertThat(LogText.quote("bidi\u202eevil")).isEqualTo("\"bidi\\u202eevil\"");
    assertThat(LogText.quote(null)).isEqualTo("null");
  }

  @Test
  void clips_long_values_saying_how_long_they_were() {
    String quoted = LogText.quote("x".repeat(10_000));
    assertThat(quoted).hasSizeLessThan(LogText.MAX_CHARS + 30).endsWith("…(10000 chars)\"");
    assertThat(quoted).doesNotContain("\n");
  }
}
