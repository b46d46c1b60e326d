package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JSON bodies are read whatever their {@code Content-Type}: {@code curl -d} labels them {@code
 * application/x-www-form-urlencoded}, and that must not matter at any size up to {@code
 * maxBodyBytes} (default 1 MiB); one byte more is 413 whatever the label or framing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsonBodyAnyContentTypeTest {
  private static final int MAX = 1 << 20;
  private WebTestApp app;

  @BeforeAll
  void start() {
    app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("jobs", 2)));
  }

  @AfterAll
  void stop() {
    app.close();
  }

  /** A submit body of exactly {@code size} bytes echoing a string of x's. */
  static String body(int size) {
    String frame = "{\"payload\":{\"echo\":\"\"}}";
    return "{\"payload\":{\"echo\":\"" + "x".repeat(size - frame.length()) + "\"}}";
  }

  static Stream<Arguments> sizesAndTypes() {
    List<Arguments> all = new ArrayList<>();
    for (int size : new int[] {100, 1024, 100 * 1024, MAX - 1}) {
      for (String type : new String[] {"application/x-www-form-urlencoded", "text/plain",
          null, "application/json", "multipart/form-data; boundary=x"}) {
        all.add(Arguments.of(size, type));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} bytes as {1}")
  @MethodSource("sizesAndTypes")
  void a_json_body_is_accepted_whatever_its_content_type(int size, String type) {
    String body = body(size);
    assertThat(body.length()).isEqualTo(size);
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(
        app.url("/api/pools/jobs/jobs"))).POST(HttpRequest.BodyPublishers.ofString(body));
    if (type != null) {
      request.header("Content-Type", type);
    }
    Http.Response r = Http.send(request);
    assertThat(r.status()).as(r.body().length() > 300 ? r.body().substring(0, 300) : r.body())
        .isEqualTo(200);
    JsonObject outcome = r.json();
    assertThat(outcome.getString("type")).isEqualTo("completed");
    assertThat(outcome.getJsonObject("result").getString("echo")).hasSize(size - 23);
  }

  @Test
  void curl_style_expect_100_continue_and_chunked_bodies_are_read_too() {
    String body = body(100 * 1024);
    Http.Response expect = Http.send(HttpRequest.newBuilder(URI.create(
            app.url("/api/pools/jobs/jobs"))).expectContinue(true)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
    assertThat(expect.json().getString("type")).isEqualTo("completed");
    RawHttp.Response chunked = RawHttp.exchange(app.port(), "POST /api/pools/jobs/jobs"
        + " HTTP/1.1\r\nHost: 127.0.0.1:" + app.port() + "\r\nTransfer-Encoding: chunked\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
        + "a\r\n{\"payload\"\r\n9\r\n:{\"echo\":\r\n4\r\n\"ok\"\r\n2\r\n}}\r\n0\r\n\r\n");
    assertThat(chunked.json().getJsonObject("result").getString("echo")).isEqualTo("ok");
  }

  @Test
  void one_byte_over_the_limit_is_413_whatever_the_label_or_framing() {
    long before = Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
        .getLong("accepted");
    String body = body(MAX + 1);
    for (String type : new String[] {"application/x-www-form-urlencoded", "text/plain",
        "application/json"}) {
      Http.Response r = Http.send(HttpRequest.newBuilder(URI.create(
              app.url("/api/pools/jobs/jobs"))).header("Content-Type", type)
          .POST(HttpRequest.BodyPublishers.ofString(body)));
      assertThat(r.status()).isEqualTo(413);
      assertThat(r.json().getString("error")).isEqualTo("PAYLOAD_TOO_LARGE");
    }
    // Chunked, so the size shows only as the bytes arrive.
    String chunks = Integer.toHexString(MAX + 1) + "\r\n" + body + "\r\n0\r\n\r\n";
    RawHttp.Response chunked = RawHttp.exchange(app.port(), "POST /api/pools/jobs/jobs"
        + " HTTP/1.1\r\nHost: 127.0.0.1:" + app.port() + "\r\nTransfer-Encoding: chunked\r\n"
        + "\r\n" + chunks);
    assertThat(chunked.status()).isEqualTo(413);
    assertThat(chunked.json().getString("message")).contains(String.valueOf(MAX));
    assertThat(Http.get(app.url("/api/pools/jobs")).json().getJsonObject("counters")
        .getLong("accepted")).isEqualTo(before);
  }
}
