package dev.shepherd.app;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.awaitility.Awaitility;

/**
 * A tiny OTLP/HTTP trace receiver on loopback for tests: {@code POST /v1/traces} with an {@code
 * ExportTraceServiceRequest} in protobuf, read with just enough of the wire format for
 * ResourceSpans(1) > ScopeSpans(2) > Span(2), the resource's(1) {@code service.name} among its
 * attributes(1), and each span's trace_id(1), span_id(2), parent_span_id(4), name(5),
 * start_time_unix_nano(7) and attributes(9) (KeyValue: key(1), AnyValue(2): string(1), bool(2),
 * int(3)). It keeps every span it receives and answers an empty response.
 */
final class OtlpTraceReceiver implements AutoCloseable {
  /**
   * One received span: ids in lower-case hex (parent "" at a root), the {@code service.name} of
   * the process that sent it (null if none), its start and its string attributes.
   */
  record Span(String traceId, String spanId, String parentSpanId, String name, String service,
      long startNanos, Map<String, String> attributes) {
    String attribute(String key) {
      return attributes.get(key);
    }
  }

  private final Vertx vertx = Vertx.vertx();
  private final List<Span> spans = new CopyOnWriteArrayList<>();
  private final HttpServer server;

  OtlpTraceReceiver() throws Exception {
    server = vertx.createHttpServer().requestHandler(request -> {
      if (!"/v1/traces".equals(request.path())) {
        request.response().setStatusCode(404).end();
        return;
      }
      boolean gzip = "gzip".equalsIgnoreCase(request.getHeader("Content-Encoding"));
      request.body().onSuccess(body -> {
        spans.addAll(decode(gzip ? gunzip(body.getBytes()) : body.getBytes()));
        request.response().putHeader("Content-Type", "application/x-protobuf")
            .end(Buffer.buffer());
      }).onFailure(e -> request.response().setStatusCode(500).end());
    }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  int port() {
    return server.actualPort();
  }

  /** Every span received so far. */
  List<Span> spans() {
    return List.copyOf(spans);
  }

  @Override
  public void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /**
   * The spans received so far named {@code name} of job {@code job}, once there are at least
   * {@code count} of them (waiting up to {@code atMost}; {@code where} names the logs to read).
   */
  List<Span> await(String name, String job, int count, Duration atMost, Object where) {
    return Awaitility.await(count + " " + name + " span(s) of job " + job + " (see " + where + ")")
        .atMost(atMost).pollInterval(Duration.ofMillis(100))
        .until(() -> spans.stream()
            .filter(s -> name.equals(s.name()) && job.equals(s.attribute("shepherd.job")))
            .toList(), found -> found.size() >= count);
  }

  /** The span received with id {@code spanId}, waiting up to {@code atMost} for it. */
  Span awaitById(String spanId, Duration atMost) {
    return Awaitility.await("span " + spanId).atMost(atMost).pollInterval(Duration.ofMillis(100))
        .until(() -> spans.stream().filter(s -> s.spanId().equals(spanId)).findFirst()
            .orElse(null), s -> s != null);
  }

  static List<Span> decode(byte[] request) {
    List<Span> out = new ArrayList<>();
    for (byte[] resourceSpans : fields(request, 1)) {
      byte[] resource = first(resourceSpans, 1);
      String service = resource == null ? null : attributes(resource, 1).get("service.name");
      for (byte[] scopeSpans : fields(resourceSpans, 2)) {
        for (byte[] span : fields(scopeSpans, 2)) {
          out.add(span(span, service));
        }
      }
    }
    return out;
  }

  private static Span span(byte[] span, String service) {
    return new Span(hex(first(span, 1)), hex(first(span, 2)), hex(first(span, 4)),
        string(first(span, 5)), service, fixed64(span, 7), attributes(span, 9));
  }

  /** The KeyValue fields numbered {@code number} of a message, as text. */
  private static Map<String, String> attributes(byte[] message, int number) {
    Map<String, String> attributes = new HashMap<>();
    for (byte[] keyValue : fields(message, number)) {
      String key = string(first(keyValue, 1));
      byte[] value = first(keyValue, 2);
      if (key != null && value != null) {
        attributes.put(key, anyValue(value));
      }
    }
    return attributes;
  }

  /** The fixed64 field numbered {@code number} of a message, or 0. */
  private static long fixed64(byte[] message, int number) {
    Reader reader = new Reader(message);
    while (reader.more()) {
      long tag = reader.varint();
      int type = (int) (tag & 7);
      if ((tag >>> 3) == number && type == 1) {
        return reader.fixed64();
      }
      reader.skip(type);
    }
    return 0;
  }

  /** An AnyValue's string, bool or int as text (other kinds: null). */
  private static String anyValue(byte[] value) {
    Reader reader = new Reader(value);
    while (reader.more()) {
      long tag = reader.varint();
      int field = (int) (tag >>> 3);
      int type = (int) (tag & 7);
      if (field == 1 && type == 2) {
        return new String(reader.bytes(), StandardCharsets.UTF_8);
      }
      if ((field == 2 || field == 3) && type == 0) {
        long v = reader.varint();
        return field == 2 ? String.valueOf(v != 0) : String.valueOf(v);
      }
      reader.skip(type);
    }
    return null;
  }

  /** The length-delimited fields numbered {@code number} of a message. */
  private static List<byte[]> fields(byte[] message, int number) {
    List<byte[]> out = new ArrayList<>();
    Reader reader = new Reader(message);
    while (reader.more()) {
      long tag = reader.varint();
      int type = (int) (tag & 7);
      if ((tag >>> 3) == number && type == 2) {
        out.add(reader.bytes());
      } else {
        reader.skip(type);
      }
    }
    return out;
  }

  private static byte[] first(byte[] message, int number) {
    List<byte[]> all = fields(message, number);
    return all.isEmpty() ? null : all.get(0);
  }

  private static String string(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  private static String hex(byte[] bytes) {
    return bytes == null ? "" : HexFormat.of().formatHex(bytes);
  }

  private static byte[] gunzip(byte[] bytes) {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The protobuf wire format, as far as this receiver reads it. */
  private static final class Reader {
    private final byte[] data;
    private int at;

    Reader(byte[] data) {
      this.data = data;
    }

    boolean more() {
      return at < data.length;
    }

    long varint() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        byte b = data[at++];
        value |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
      throw new IllegalArgumentException("varint too long");
    }

    long fixed64() {
      long value = 0;
      for (int i = 0; i < 8; i++) {
        value |= (long) (data[at++] & 0xff) << (8 * i);
      }
      return value;
    }

    byte[] bytes() {
      int length = (int) varint();
      byte[] out = java.util.Arrays.copyOfRange(data, at, at + length);
      at += length;
      return out;
    }

    void skip(int type) {
      switch (type) {
        case 0 -> varint();
        case 1 -> at += 8;
        case 2 -> bytes();
        case 5 -> at += 4;
        default -> throw new IllegalArgumentException("wire type " + type);
      }
    }
  }
}
