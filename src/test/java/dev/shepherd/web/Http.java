package dev.shepherd.web;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small blocking HTTP client for tests (the JDK's), with JSON helpers. */
final class Http {
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  private Http() {}

  record Response(int status, String body, java.net.http.HttpHeaders headers) {
    JsonObject json() {
      return new JsonObject(body);
    }
  }

  static Response get(String url) {
    return send(HttpRequest.newBuilder(URI.create(url)).GET());
  }

  static Response post(String url, String body) {
    return post(url, body, null);
  }

  static Response post(String url, String body, String authorization) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return send(b);
  }

  static Response delete(String url, String authorization) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).DELETE();
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return send(b);
  }

  static Response send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r = CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body(), r.headers());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Submits a job without waiting for its outcome; returns the admission. */
  static JsonObject submit(WebTestApp app, String pool, JsonObject body) {
    Response r = post(app.url("/api/pools/" + pool + "/jobs?wait=false"), body.encode());
    return r.json();
  }
}
