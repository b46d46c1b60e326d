package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a standby answers for the status of a highly available pool while its leader dies (A1 in
 * docs/rules.md), across JVMs: polled through a standby's HTTP port from before a {@code kill -9}
 * of the active node until the new leader answers, every answer is the status or {@code 503
 * NO_LEADER} with {@code Retry-After}, never {@code 504 POOL_TIMEOUT} after a wait on the dead
 * node, and none names an event-bus address.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HaStatusDuringFailoverTest {
  @RegisterExtension
  final ClusterNodes cluster = new ClusterNodes();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
      .build();

  private HttpResponse<String> status(int port) throws Exception {
    return http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/api/pools/" + HaNodes.POOL))
        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void A1_T3_a_status_through_a_standby_during_a_failover_is_the_status_or_503_NO_LEADER()
      throws Exception {
    HaNodes ha = new HaNodes(cluster, 3, HaNodes.pool(1));
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> ha.active() != null);
    ClusterNode victim = ha.active();
    String before = ha.status().getJsonObject("ha").getString("active");
    int standbyPort = -1;
    for (int i = 0; i < ha.nodes.size(); i++) {
      if (ha.nodes.get(i) != victim) {
        standbyPort = ha.httpPorts.get(i);
      }
    }
    int port = standbyPort;
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
        .until(() -> status(port).statusCode() == 200);

    victim.kill();
    long killedAt = System.nanoTime();
    List<HttpResponse<String>> answers = new ArrayList<>();
    List<String> timeline = new ArrayList<>();
    String leader = before;
    for (int i = 0; i < 400 && leader.equals(before); i++) {
      long sent = System.nanoTime();
      HttpResponse<String> r = status(port);
      answers.add(r);
      timeline.add(String.format("sent +%d ms, answered in %d ms: %d",
          (sent - killedAt) / 1_000_000, (System.nanoTime() - sent) / 1_000_000, r.statusCode()));
      if (r.statusCode() == 200) {
        leader = new JsonObject(r.body()).getJsonObject("ha").getString("active");
      } else {
        Thread.sleep(100);
      }
    }

    System.out.println("status through a standby after kill -9:\n  "
        + String.join("\n  ", timeline));
    assertThat(leader).as("a new leader answered through the standby").isNotEqualTo(before);
    for (HttpResponse<String> r : answers) {
      assertThat(r.body()).doesNotContain("__vertx").doesNotContain("shepherd." + HaNodes.POOL);
      if (r.statusCode() != 200) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
        assertThat(new JsonObject(r.body()).getString("error")).isEqualTo("NO_LEADER");
        assertThat(r.headers().firstValue("Retry-After")).contains("1");
      }
    }
    System.out.printf("status through a standby after kill -9: %d answers, %d of them 503%n",
        answers.size(), answers.stream().filter(r -> r.statusCode() == 503).count());
  }
}
