package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.cluster.trust.TestCertificates;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The event bus's TLS with mutual authentication across JVMs (docs/security.md): a coordinator
 * and two worker hosts, each with a key store the cluster's CA signed, serve jobs over the
 * cluster; a node with a self-signed certificate and a member with no TLS at all join the same
 * Hazelcast cluster and get nothing: no registration, no assignment, no payload, no answer to a
 * submit, and the pool serves throughout.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class TlsAcrossJvmsTest {
  private static final Duration NODE_START = Duration.ofSeconds(120);

  @RegisterExtension
  final ClusterNodes nodes = new ClusterNodes();

  private Map<String, String> env(Map<String, String> tls) {
    Map<String, String> env = new HashMap<>(nodes.clusterEnv());
    env.putAll(tls);
    return env;
  }

  private ClusterNode host(String name, Map<String, String> tls) {
    return nodes.start(name, ClusterNodes.shippedConf("cluster-host.json"), env(tls), List.of());
  }

  @Test
  void mutual_tls_serves_jobs_across_jvms_and_a_member_without_the_cas_certificate_gets_nothing()
      throws Exception {
    int port = ClusterPorts.freeHttpPort();
    JsonObject coordinatorConf = ClusterNodes.shippedConf("cluster-coordinator.json");
    coordinatorConf.getJsonObject("http").put("host", "127.0.0.1").put("port", port);
    ClusterNode coordinator = nodes.start("coordinator", coordinatorConf,
        env(TestCertificates.env("node-a")), List.of());
    coordinator.awaitLine("Shepherd node ready", NODE_START);
    assertThat(coordinator.output()).contains("TLS with client certificates");
    ClusterNode h1 = host("h1", TestCertificates.env("node-b"));
    ClusterNode h2 = host("h2", TestCertificates.env("node-c"));
    h1.awaitLine("host h1: registered with pool jobs", NODE_START);
    h2.awaitLine("host h2: registered with pool jobs", NODE_START);
    int[] before = TrustedNodes.assertCompleted(TrustedNodes.submit(port, "before", 20),
        "before", "h1", "h2");
    assertThat(before[0] + before[1]).isEqualTo(20);

    // A node with a certificate of its own (self-signed) that trusts the CA, posing as a host.
    Map<String, String> rogueTls = new HashMap<>(TestCertificates.env("node-a"));
    rogueTls.put(dev.shepherd.cluster.trust.EventBusTls.KEYSTORE,
        TestCertificates.rogueKeyStore().toString());
    ClusterNode selfSigned = host("rogue", rogueTls);
    // A member with no TLS: it consumes on h1's command address, registers, submits.
    String h1Address = TrustedNodes.commandAddress(h1);
    Vertx plain = nodes.joinAsMember();
    List<Object> stolen = new CopyOnWriteArrayList<>();
    MessageConsumer<Object> onH1 = plain.eventBus().consumer(h1Address, m -> stolen.add(m.body()));
    // Its consumer on the submit address hears only its own submit (local delivery).
    List<Object> submitsHeard = new CopyOnWriteArrayList<>();
    MessageConsumer<Object> onSubmit = plain.eventBus().consumer(
        Addresses.forPool("jobs").submit(), m -> submitsHeard.add(m.body()));
    onH1.completion().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    onSubmit.completion().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    FakeHost fake = new FakeHost(plain, "jobs", "intruder", "intruder-node");
    DeliveryOptions quick = new DeliveryOptions().setSendTimeout(5_000);
    CompletableFuture<?> registration = plain.eventBus()
        .request(Addresses.forPool("jobs").register(), fake.registration(2, 2), quick)
        .toCompletionStage().toCompletableFuture();
    CompletableFuture<?> submit = plain.eventBus()
        .request(Addresses.forPool("jobs").submit(), new JsonObject().put("payload",
            new JsonObject().put("echo", "rogue")), quick)
        .toCompletionStage().toCompletableFuture();

    List<CompletableFuture<JsonObject>> during = TrustedNodes.submit(port, "during", 40);
    assertThat(registration).failsWithin(Duration.ofSeconds(30));
    assertThat(submit).failsWithin(Duration.ofSeconds(30));
    int[] duringCounts = TrustedNodes.assertCompleted(during, "during", "h1", "h2");
    assertThat(duringCounts[0]).as("jobs h1 ran while its address had a rogue consumer")
        .isPositive();
    selfSigned.awaitLine("host rogue: no answer from pool jobs", NODE_START);
    List<CompletableFuture<JsonObject>> after = TrustedNodes.submit(port, "after", 20);
    TrustedNodes.assertCompleted(after, "after", "h1", "h2");

    JsonObject status = TrustedNodes.status(port);
    assertThat(status.getJsonArray("hosts").stream().map(h -> ((JsonObject) h).getString("id")))
        .containsExactlyInAnyOrder("h1", "h2");
    assertThat(status.getJsonObject("counters").getLong("completed")).isEqualTo(80);
    assertThat(stolen).as("what the member without TLS received on h1's address").isEmpty();
    assertThat(submitsHeard).as("submits the member without TLS heard").allSatisfy(body ->
        assertThat(((JsonObject) body).getJsonObject("payload").getString("echo"))
            .isEqualTo("rogue"));
    assertThat(fake.received).as("commands to the intruder's address").isEmpty();
    assertThat(selfSigned.output()).doesNotContain("registered with pool jobs at");
  }
}
