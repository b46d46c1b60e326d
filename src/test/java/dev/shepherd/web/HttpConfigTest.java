package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.ConfigException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code http} configuration: its defaults, and a refusal naming the field for bad values. */
class HttpConfigTest {

  @Test
  void defaults() {
    HttpConfig config = HttpConfig.parse(new JsonObject());
    assertThat(config.enabled()).isTrue();
    assertThat(config.host()).isEqualTo("127.0.0.1");
    assertThat(config.port()).isEqualTo(8080);
    assertThat(config.maxBodyBytes()).isEqualTo(1 << 20);
    assertThat(config.allowedHosts()).isEmpty();
    assertThat(config.idleTimeoutMs()).isEqualTo(60_000);
    assertThat(config.headerTimeoutMs()).isEqualTo(10_000);
    assertThat(config.leaderWaitMs()).isEqualTo(10_000);
  }

  @Test
  void every_field_is_read() {
    HttpConfig config = HttpConfig.parse(new JsonObject().put("enabled", false)
        .put("allowedHosts", new JsonArray().add("shepherd.example.com").add("10.0.0.5:8443")
            .add("[fe80::1]").add("::1"))
        .put("idleTimeoutMs", 5000).put("headerTimeoutMs", 2000).put("leaderWaitMs", 1500));
    assertThat(config.enabled()).isFalse();
    assertThat(config.allowedHosts()).containsExactly("shepherd.example.com", "10.0.0.5:8443",
        "[fe80::1]", "::1");
    assertThat(config.idleTimeoutMs()).isEqualTo(5000);
    assertThat(config.headerTimeoutMs()).isEqualTo(2000);
    assertThat(config.leaderWaitMs()).isEqualTo(1500);
    assertThat(HttpConfig.parse(new JsonObject().put("allowedHosts", new JsonArray().add("*")))
        .allowedHosts()).isEqualTo(List.of("*"));
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of("enabled", "yes", "http.enabled"),
        Arguments.of("enabled", 1, "http.enabled"),
        Arguments.of("allowedHosts", "localhost", "http.allowedHosts"),
        Arguments.of("allowedHosts", new JsonObject(), "http.allowedHosts"),
        Arguments.of("allowedHosts", new JsonArray().add(5), "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("ok.test").add(""),
            "http.allowedHosts[1]"),
        Arguments.of("allowedHosts", new JsonArray().add("a b"), "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("http://x.test"),
            "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("x.test:0"), "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("x.test:70000"),
            "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("x.test:"), "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("x.test/path"),
            "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("[::1"), "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().add("[nothost]"), "http.allowedHosts[0]"),
        Arguments.of("allowedHosts", new JsonArray().addNull(), "http.allowedHosts[0]"),
        Arguments.of("idleTimeoutMs", 0, "http.idleTimeoutMs"),
        Arguments.of("idleTimeoutMs", -1, "http.idleTimeoutMs"),
        Arguments.of("idleTimeoutMs", "60000", "http.idleTimeoutMs"),
        Arguments.of("idleTimeoutMs", 1.5, "http.idleTimeoutMs"),
        Arguments.of("headerTimeoutMs", 50, "http.headerTimeoutMs"),
        Arguments.of("headerTimeoutMs", true, "http.headerTimeoutMs"),
        Arguments.of("leaderWaitMs", 0, "http.leaderWaitMs"),
        Arguments.of("leaderWaitMs", -1000, "http.leaderWaitMs"),
        Arguments.of("leaderWaitMs", 600_001, "http.leaderWaitMs"),
        Arguments.of("leaderWaitMs", "10000", "http.leaderWaitMs"),
        Arguments.of("leaderWaitMs", 2.5, "http.leaderWaitMs"),
        Arguments.of("leaderWaitMs", new JsonObject(), "http.leaderWaitMs"),
        Arguments.of("timeoutMs", 1000, "http.timeoutMs"));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("invalid")
  void invalid_values_are_refused_naming_the_field(String field, Object value, String named) {
    assertThatThrownBy(() -> HttpConfig.parse(new JsonObject().put(field, value)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(named + ":");
  }
}
