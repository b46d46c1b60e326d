package dev.shepherd.cluster.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.multimap.MultiMap;
import dev.shepherd.bench.LoopbackPorts;
import dev.shepherd.cluster.ClusteredVertx;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import io.vertx.spi.cluster.hazelcast.impl.HazelcastRegistrationInfo;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A4 in docs/rules.md across a member that resumes after a pause and removes, from the cluster's
 * list of consumers, consumers of nodes that are alive. Two members in this JVM; one removes the
 * other's consumer from the list as such a member would. Guarded, the other lists it again and
 * what is sent to it arrives (unguarded, nothing would: vertx-hazelcast lists a node's consumers
 * again only when a member leaves). A consumer its own node unregistered is not listed again.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RegistrationGuardTest {
  private final SplittableRandom random = new SplittableRandom();
  private final String cluster = "shepherd-guard-" + Long.toHexString(random.nextLong());
  private final int port = LoopbackPorts.freeClusterBlock(random);
  private Vertx guarded;
  private Vertx stray;
  private RegistrationGuard guard;

  @AfterEach
  void close() {
    if (guard != null) {
      guard.close();
    }
    ClusteredVertx.close(stray);
    ClusteredVertx.close(guarded);
  }

  @Test
  void A4_a_consumer_another_member_removed_from_the_cluster_list_is_listed_again_and_reached()
      throws Exception {
    start();
    listen("answers");
    assertThat(ask("answers")).isEqualTo("answers");

    removeFromTheList("answers");

    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> "answers".equals(ask("answers")));
    assertThat(listed("answers")).isEqualTo(1);
  }

  @Test
  void A4_a_consumer_its_own_node_unregistered_is_not_listed_again() throws Exception {
    start();
    MessageConsumer<Object> gone = listen("gone");
    listen("kept");
    gone.unregister().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertThat(listed("gone")).isZero();

    // A removal by another member makes the guard list this node's consumers again.
    removeFromTheList("kept");
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
        .until(() -> "kept".equals(ask("kept")));
    assertThat(listed("gone")).isZero();
    assertThat(ask("gone")).isNull();
  }

  private void start() {
    guarded = ClusteredVertx.start(cluster, port);
    stray = ClusteredVertx.start(cluster, port);
    guard = RegistrationGuard.start(guarded);
  }

  /** A consumer on the guarded member that answers with its own address. */
  private MessageConsumer<Object> listen(String address) throws Exception {
    MessageConsumer<Object> consumer =
        guarded.eventBus().consumer(address, m -> m.reply(address));
    consumer.completion().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    return consumer;
  }

  /** What a resumed member's cleanup does: removes the guarded node's consumer of {@code address}. */
  private void removeFromTheList(String address) {
    String node = ClusteredVertx.nodeId(guarded);
    MultiMap<String, HazelcastRegistrationInfo> subs = subs();
    int removed = 0;
    for (HazelcastRegistrationInfo info : subs.get(address)) {
      if (info.unwrap().nodeId().equals(node) && subs.remove(address, info)) {
        removed++;
      }
    }
    // The guard may list it again at once: what was there is gone, whatever came back.
    assertThat(removed).isEqualTo(1);
  }

  /** How many of the guarded node's consumers of {@code address} the cluster lists. */
  private long listed(String address) {
    String node = ClusteredVertx.nodeId(guarded);
    return subs().get(address).stream().filter(i -> i.unwrap().nodeId().equals(node)).count();
  }

  private MultiMap<String, HazelcastRegistrationInfo> subs() {
    return ((HazelcastClusterManager) ((VertxInternal) stray).clusterManager())
        .getHazelcastInstance().getMultiMap(HazelcastRegistrationGuard.SUBS);
  }

  /** The answer of the consumer of {@code address}, asked from the other member, or null. */
  private String ask(String address) {
    try {
      return stray.eventBus().<String>request(address, "?").toCompletionStage()
          .toCompletableFuture().get(10, TimeUnit.SECONDS).body();
    } catch (Exception e) {
      return null;
    }
  }
}
