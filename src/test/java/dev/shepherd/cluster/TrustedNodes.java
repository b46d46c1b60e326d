package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the multi-JVM tests of the trust boundary share: jobs submitted over a coordinator's HTTP
 * port (so the submitter needs no place in the cluster) and the command address a host names in
 * the line it logs once registered.
 */
final class TrustedNodes {
  private static final Pattern REGISTERED_AT =
      Pattern.compile("host (\\S+): registered with pool (\\S+) at (\\S+) \\(");
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  private TrustedNodes() {}

  /** Starts {@code count} jobs {@code {"echo": prefix-i}} over HTTP; each answers its outcome. */
  static List<CompletableFuture<JsonObject>> submit(int port, String prefix, int count) {
    List<CompletableFuture<JsonObject>> outcomes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String body = new JsonObject().put("payload", new JsonObject().put("echo", prefix + "-" + i)
          .put("sleepMs", 20)).encode();
      HttpRequest request = HttpRequest
          .newBuilder(URI.create("http://127.0.0.1:" + port + "/api/pools/jobs/jobs"))
          .timeout(Duration.ofSeconds(90)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build();
      outcomes.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString())
          .thenApply(r -> new JsonObject(r.body())));
    }
    return outcomes;
  }

  /**
   * Waits for every outcome: each completed, its echo its own, on a worker of one of {@code
   * hosts}; answers how many ran on each host, in the order given.
   */
  static int[] assertCompleted(List<CompletableFuture<JsonObject>> outcomes, String prefix,
      String... hosts) {
    int[] perHost = new int[hosts.length];
    for (int i = 0; i < outcomes.size(); i++) {
      JsonObject outcome = outcomes.get(i).join();
      assertThat(outcome.getString("type")).as(outcome.encode()).isEqualTo("completed");
      assertThat(outcome.getJsonObject("result").getString("echo")).isEqualTo(prefix + "-" + i);
      String worker = outcome.getString("worker");
      boolean known = false;
      for (int h = 0; h < hosts.length; h++) {
        if (worker.startsWith(hosts[h] + "/")) {
          perHost[h]++;
          known = true;
        }
      }
      assertThat(known).as("job %d ran on %s, one of the trusted hosts", i, worker).isTrue();
    }
    return perHost;
  }

  /** The pool's status over HTTP. */
  static JsonObject status(int port) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest
        .newBuilder(URI.create("http://127.0.0.1:" + port + "/api/pools/jobs"))
        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
    return new JsonObject(response.body());
  }

  /** The command address host {@code node} logged when it registered. */
  static String commandAddress(ClusterNode node) {
    Matcher matcher = REGISTERED_AT.matcher(node.output());
    assertThat(matcher.find()).as("a registration line of " + node).isTrue();
    return matcher.group(3);
  }
}
