package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.cluster.trust.ClusterKeys;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Authenticated worker hosts across JVMs (docs/security.md): a coordinator and a host that share
 * the cluster key serve jobs; a host started without the key and one with another key are
 * refused with {@code 401 UNAUTHENTICATED_HOST}, each says so once however often it asks again,
 * the pool logs each refused host once, and neither ever runs a job.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HostMacAcrossJvmsTest {
  private static final Duration NODE_START = Duration.ofSeconds(120);

  @RegisterExtension
  final ClusterNodes nodes = new ClusterNodes();

  private static String randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private Map<String, String> env(String key) {
    Map<String, String> env = new HashMap<>(nodes.clusterEnv());
    if (key != null) {
      env.put(ClusterKeys.KEY, key);
    }
    return env;
  }

  private ClusterNode host(String name, String key) {
    return nodes.start(name, ClusterNodes.shippedConf("cluster-host.json"), env(key), List.of());
  }

  @Test
  void a_host_without_the_cluster_key_or_with_another_is_refused_401_UNAUTHENTICATED_HOST_and_logged_once()
      throws Exception {
    String key = randomKey();
    int port = ClusterPorts.freeHttpPort();
    JsonObject conf = ClusterNodes.shippedConf("cluster-coordinator.json");
    conf.getJsonObject("http").put("host", "127.0.0.1").put("port", port);
    ClusterNode coordinator = nodes.start("coordinator", conf, env(key), List.of());
    coordinator.awaitLine("Shepherd node ready", NODE_START);
    ClusterNode h1 = host("h1", key);
    ClusterNode keyless = host("keyless", null);
    ClusterNode otherKey = host("otherkey", randomKey());
    h1.awaitLine("host h1: registered with pool jobs", NODE_START);
    keyless.awaitLine("host keyless: pool jobs refuses it: UNAUTHENTICATED_HOST", NODE_START);
    otherKey.awaitLine("host otherkey: pool jobs refuses it: UNAUTHENTICATED_HOST", NODE_START);
    coordinator.awaitLine("refused a register from host \"keyless\"", NODE_START);
    coordinator.awaitLine("refused a register from host \"otherkey\"", NODE_START);

    // The refused hosts go on asking meanwhile (every second): still one line each.
    int[] perHost = TrustedNodes.assertCompleted(TrustedNodes.submit(port, "keyed", 20),
        "keyed", "h1");
    assertThat(perHost[0]).isEqualTo(20);
    Thread.sleep(3_000);

    for (String refused : List.of("keyless", "otherkey")) {
      assertThat(lines(coordinator.output(), "refused a register from host \"" + refused
          + "\"")).as("the pool's lines about " + refused).isEqualTo(1);
    }
    assertThat(lines(keyless.output(), "refuses it: UNAUTHENTICATED_HOST")).isEqualTo(1);
    assertThat(lines(otherKey.output(), "refuses it: UNAUTHENTICATED_HOST")).isEqualTo(1);
    assertThat(keyless.output() + otherKey.output()).doesNotContain("registered with pool jobs");
    JsonObject status = TrustedNodes.status(port);
    assertThat(status.getJsonArray("hosts").stream().map(h -> ((JsonObject) h).getString("id")))
        .containsExactly("h1");
  }

  private static long lines(String log, String text) {
    return log.lines().filter(l -> l.contains(text)).count();
  }
}
