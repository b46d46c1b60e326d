package dev.shepherd.cluster.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.config.Config;
import dev.shepherd.bench.LoopbackPorts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A3 in docs/rules.md (a takeover's submits reach the standbys): three members in this JVM, two
 * with a consumer of the same address. One member's Hazelcast is terminated as a {@code kill -9}
 * would end it, while its event bus goes on receiving, so that whatever is still sent to it is
 * counted. The survivors hold vertx-hazelcast's clean-up of the cluster's consumer list (which,
 * after a kill, waits for the dead member's partitions to get new owners): the list still names
 * the departed member's consumer, and yet every request after its removal reaches the live one.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DepartureAwareClusterManagerTest {
  private static final String ADDRESS = "work";
  private final SplittableRandom random = new SplittableRandom();
  private final String cluster = "shepherd-departure-" + Long.toHexString(random.nextLong());
  private final int port = LoopbackPorts.freeClusterBlock(random);
  private final CountDownLatch cleanUp = new CountDownLatch(1);
  private final List<Vertx> started = new ArrayList<>();

  /** Routes around a departed member at once, and cleans the list only once the test lets it. */
  private final class HeldCleanUp extends DepartureAwareClusterManager {
    private final CountDownLatch routed = new CountDownLatch(1);

    HeldCleanUp(Config config) {
      super(config);
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
      routeAround();
      routed.countDown();
      try {
        cleanUp.await(120, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      super.memberRemoved(event);
    }
  }

  @AfterEach
  void close() {
    cleanUp.countDown();
    for (Vertx vertx : started) {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        // the terminated member's Vert.x may fail to leave a cluster it is no longer in
      }
    }
  }

  @Test
  void A3_requests_after_a_member_is_removed_go_to_live_consumers_while_the_list_still_names_it()
      throws Exception {
    HeldCleanUp dyingView = new HeldCleanUp(config());
    Vertx dying = start(dyingView);
    HeldCleanUp liveView = new HeldCleanUp(config());
    Vertx live = start(liveView);
    HeldCleanUp senderView = new HeldCleanUp(config());
    Vertx sender = start(senderView);
    AtomicInteger reachedTheDead = new AtomicInteger();
    done(dying.eventBus().consumer(ADDRESS, m -> {
      reachedTheDead.incrementAndGet();
      m.reply("dead");
    }).completion());
    done(live.eventBus().consumer(ADDRESS, m -> m.reply("live")).completion());
    await().atMost(Duration.ofSeconds(60)).until(() -> listed(senderView) == 2);
    List<String> before = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      before.add(ask(sender));
    }
    assertThat(before).as("both consumers answer before the kill").contains("dead", "live");
    await().atMost(Duration.ofSeconds(60))
        .until(() -> senderView.getHazelcastInstance().getPartitionService().isClusterSafe());

    dyingView.getHazelcastInstance().getLifecycleService().terminate();
    assertThat(senderView.routed.await(60, TimeUnit.SECONDS)).isTrue();
    int reachedBefore = reachedTheDead.get();

    List<String> after = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      after.add(ask(sender));
    }
    assertThat(listed(senderView)).as("the list still names the departed member").isEqualTo(2);
    assertThat(after).containsOnly("live");
    assertThat(reachedTheDead.get()).isEqualTo(reachedBefore);
  }

  @Test
  void A4_a_ready_address_read_before_its_consumer_existed_reaches_the_consumer_listed_later()
      throws Exception {
    DepartureAwareClusterManager senderView = new DepartureAwareClusterManager(config());
    Vertx sender = start(senderView);
    Vertx other = start(new DepartureAwareClusterManager(config()));
    await().atMost(Duration.ofSeconds(60)).until(() -> senderView.getNodes().size() == 2);

    senderView.keepReady("answers");
    await().atMost(Duration.ofSeconds(30)).until(() -> senderView.readyList("answers") != null);
    assertThat(senderView.readyList("answers")).as("read before any consumer").isEmpty();

    done(other.eventBus().consumer("answers", m -> m.reply("here")).completion());
    await().atMost(Duration.ofSeconds(30))
        .until(() -> senderView.readyList("answers").size() == 1);
    assertThat(ask(sender, "answers")).isEqualTo("here");
    assertThat(senderView.readyList("answers").get(0).nodeId())
        .isEqualTo(nodeOf(other));
  }

  @Test
  void A3_a_member_knows_the_event_bus_address_of_every_other_member_before_it_first_sends_there()
      throws Exception {
    Vertx earlier = start(new DepartureAwareClusterManager(config()));
    DepartureAwareClusterManager view = new DepartureAwareClusterManager(config());
    start(view);
    Vertx later = start(new DepartureAwareClusterManager(config()));

    await().atMost(Duration.ofSeconds(30)).until(() -> view.knowsNode(nodeOf(earlier))
        && view.knowsNode(nodeOf(later)));
    assertThat(view.knowsNode(view.getNodeId())).as("its own address is never asked for").isFalse();

    done(later.close());
    started.remove(later);
    await().atMost(Duration.ofSeconds(30)).until(() -> !view.knowsNode(nodeOf(later)));
    assertThat(view.knowsNode(nodeOf(earlier))).isTrue();
  }

  private static String nodeOf(Vertx vertx) {
    return ((io.vertx.core.internal.VertxInternal) vertx).clusterManager().getNodeId();
  }

  private Config config() {
    Config config = ClusterSetup.hazelcastConfig(
        new ClusterSettings(cluster, "127.0.0.1", port, List.of("127.0.0.1")));
    config.setProperty("hazelcast.graceful.shutdown.max.wait", "5");
    return config;
  }

  private Vertx start(HazelcastClusterManager manager) throws Exception {
    VertxOptions options = new VertxOptions()
        .setEventBusOptions(new EventBusOptions().setHost("127.0.0.1").setPort(0));
    Vertx vertx = done(Vertx.builder().with(options).withClusterManager(manager)
        .buildClustered());
    started.add(vertx);
    return vertx;
  }

  /** The registrations of {@link #ADDRESS} in the cluster's list, as {@code view} reads it. */
  private static int listed(HazelcastClusterManager view) {
    return view.getHazelcastInstance().getMultiMap("__vertx.subs").get(ADDRESS).size();
  }

  private static String ask(Vertx sender) throws Exception {
    return ask(sender, ADDRESS);
  }

  private static String ask(Vertx sender, String address) throws Exception {
    return done(sender.eventBus().<String>request(address, "?")).body();
  }

  private static <T> T done(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
