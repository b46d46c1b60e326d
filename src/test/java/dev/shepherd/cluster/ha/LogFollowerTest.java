package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.shepherd.cluster.ClusterPorts;
import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.cluster.trust.ClusterKeys;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.ha.DurableJson;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A3 on a real Hazelcast member: a standby that followed the log claims the pool and reads only
 * what was written since its last look, and recovers exactly what a reading of the whole log
 * recovers; a base it has not seen stay put is only located, not read.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LogFollowerTest {
  private static final String POOL = "jobs";
  private HazelcastInstance member;
  private Vertx vertx;
  private Context context;
  private HaStore store;
  private LogFollower follower;
  /** The addresses the follower asked to keep ready. */
  private final Set<String> ready = java.util.concurrent.ConcurrentHashMap.newKeySet();

  @BeforeEach
  void start() throws Exception {
    Config config = ClusterSetup.hazelcastConfig(new ClusterSettings(
        ClusterPorts.uniqueName("follow"), "127.0.0.1", ClusterPorts.freeBase(),
        List.of("127.0.0.1"), 1));
    config.getMemberAttributeConfig().setAttribute(HaStore.NODE_ID, "n0");
    member = Hazelcast.newHazelcastInstance(config);
    store = new HaStore(member);
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
    follower = on(() -> new LogFollower(POOL, store, new SealedRecords(POOL, ClusterKeys.NONE),
        context, ready::add));
    // Term 1, led by n1 (not a member here, so a later claim wins).
    assertThat(store.claim(POOL, "n1", Set.of("n1")).toCompletableFuture().get().won()).isTrue();
  }

  @AfterEach
  void stop() {
    if (vertx != null) {
      vertx.close().await();
    }
    if (member != null) {
      member.getLifecycleService().terminate();
    }
  }

  private <T> T on(Supplier<T> action) throws Exception {
    CompletableFuture<T> done = new CompletableFuture<>();
    context.runOnContext(v -> done.complete(action.get()));
    return done.get(30, TimeUnit.SECONDS);
  }

  /** A look at the log at {@code now}, and its reading replayed. */
  private void look(long now) throws Exception {
    on(() -> {
      follower.tick(now);
      return null;
    });
    await().atMost(Duration.ofSeconds(30)).until(() -> !on(follower::looking));
    // The replay runs after it on the worker, in order: a no-op task behind it waits for it.
    context.executeBlocking(() -> null, true).await();
  }

  private static DurableRecord.Accepted accepted(String job) {
    byte[] payload = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
    return new DurableRecord.Accepted(job, 0, Long.parseLong(job.substring(2)),
        new RawJson(payload), null, "reply", 0, payload.length, null);
  }

  private void write(long term, long id, DurableRecord... records) throws Exception {
    DurableGate.Batch batch = new DurableGate.Batch(id, List.of(records), List.of(), false,
        List.of());
    assertThat(store.write(POOL, term, id, DurableJson.encode(batch)
        .getBytes(StandardCharsets.UTF_8), null).toCompletableFuture().get()).isTrue();
  }

  private void checkpoint(long term, long id, DurableImage image) throws Exception {
    DurableGate.Batch batch = new DurableGate.Batch(id, List.of(), List.of(), true, List.of());
    byte[] base = DurableJson.encode(new DurableLog.Base(image, List.of()))
        .getBytes(StandardCharsets.UTF_8);
    assertThat(store.write(POOL, term, id, DurableJson.encode(batch)
        .getBytes(StandardCharsets.UTF_8), base).toCompletableFuture().get()).isTrue();
  }

  @Test
  void A4_a_standby_keeps_ready_the_reply_addresses_of_the_jobs_it_follows() throws Exception {
    write(1, 1, accepted("j-1"), accepted("j-2"));
    look(0);
    look(LogFollower.FOLLOW_MS);

    assertThat(ready).containsExactly("reply");
  }

  @Test
  void A3_a_standby_that_followed_the_log_reads_only_its_tail_and_recovers_the_same()
      throws Exception {
    write(1, 1, accepted("j-1"), accepted("j-2"));
    write(1, 2, new DurableRecord.Assigned("j-1", "w-0", 1));
    look(0);
    assertThat(on(follower::bytesFollowed)).as("a base not yet seen twice is only located")
        .isZero();
    look(LogFollower.FOLLOW_MS);
    long followed = on(follower::bytesFollowed);
    assertThat(followed).as("the whole log, read once its base stayed put").isPositive();
    write(1, 3, new DurableRecord.Answered("j-1", "reply", new Outcome.Cancelled("j-1")),
        accepted("j-3"));
    look(2 * LogFollower.FOLLOW_MS);
    assertThat(on(follower::bytesFollowed)).isGreaterThan(followed);
    write(1, 4, new DurableRecord.Assigned("j-2", "w-1", 1));

    HaEntry.Position from = on(follower::claimFrom);
    HaEntry.Claimed claimed = store.claim(POOL, "n2", Set.of("n2"), from).toCompletableFuture()
        .get();
    assertThat(claimed.won()).isTrue();
    assertThat(claimed.tail()).isTrue();
    assertThat(claimed.base()).isNull();
    assertThat(claimed.batches()).as("only what was written after its last look").hasSize(1);

    Map<String, JournalTrace> traces = new HashMap<>();
    DurableLog.Recovered recovered = on(() -> follower.recover(claimed, traces)).await();

    HaEntry.Read whole = store.follow(POOL, null, -1, -1, true).toCompletableFuture().get();
    List<DurableGate.Batch> batches = new ArrayList<>();
    whole.batches().forEach(b -> batches.add(DurableJson.decodeBatch(
        new String(b.text(), StandardCharsets.UTF_8))));
    DurableLog.Recovered expected = DurableLog.recover(DurableLog.Base.empty(0), batches,
        claimed.previousTerm());
    assertThat(recovered).isEqualTo(expected);
    assertThat(recovered.image().jobs()).extracting(DurableImage.JobImage::job)
        .containsExactly("j-2", "j-3");
    assertThat(recovered.records()).isEqualTo(6);
  }

  @Test
  void A3_a_claim_after_a_new_checkpoint_hands_over_the_whole_log() throws Exception {
    write(1, 1, accepted("j-1"));
    look(0);
    look(LogFollower.FOLLOW_MS);
    checkpoint(1, 2, new DurableImage(1, 0, List.of(), List.of(), List.of()));
    write(1, 3, accepted("j-9"));

    HaEntry.Position from = on(follower::claimFrom);
    HaEntry.Claimed claimed = store.claim(POOL, "n2", Set.of("n2"), from).toCompletableFuture()
        .get();
    assertThat(claimed.tail()).as("its base is gone").isFalse();
    assertThat(claimed.base()).isNotNull();

    DurableLog.Recovered recovered = on(() -> follower.recover(claimed, new HashMap<>()))
        .await();
    assertThat(recovered.image().jobs()).extracting(DurableImage.JobImage::job)
        .containsExactly("j-9");
  }
}
