package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Phase;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.SlotHandle;
import dev.shepherd.runtime.coordinator.TermRunner;
import dev.shepherd.runtime.ha.DurableJson;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.wire.Requests;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A highly available pool's times: its lease is measured on the leader's monotonic clock, so a
 * step of the wall clock neither makes a stale lease look fresh (a leader paused past its lease
 * lets nothing out, however far the wall clock went back meanwhile) nor a fresh one stale (A2,
 * A3); and the journal carries wall times, so a successor whose monotonic clock has another
 * origin (another JVM) recovers a waiting job due at the same instant (J3, J4 with A3). A real
 * {@link Coordinator} leads on a {@link FakeTime}, writing to a store the test holds or
 * acknowledges, which keeps the journal as JSON text as {@code HaStore} does.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaClockTest {
  private static final String POOL = "ha-clock";

  /** The store of one pool: acknowledges writes at once, or holds them while {@link #hold}. */
  private static final class Store implements Leadership {
    private String base;
    private final List<String> batches = new ArrayList<>();
    private final List<Promise<Void>> held = new ArrayList<>();
    private boolean holding;

    @Override
    public synchronized Future<Void> write(long term, DurableGate.Batch batch,
        DurableLog.Base checkpoint) {
      if (checkpoint != null) {
        base = DurableJson.encode(checkpoint);
        batches.clear();
      } else {
        batches.add(DurableJson.encode(batch));
      }
      Promise<Void> written = Promise.promise();
      if (holding) {
        held.add(written);
      } else {
        written.complete();
      }
      return written.future();
    }

    /** From now on writes wait: the leader is cut off from the store, or paused. */
    synchronized void hold() {
      holding = true;
    }

    /** Acknowledges the writes held (the leader is back). */
    void acknowledgeHeld() {
      List<Promise<Void>> acknowledged;
      synchronized (this) {
        holding = false;
        acknowledged = new ArrayList<>(held);
        held.clear();
      }
      acknowledged.forEach(Promise::complete);
    }

    synchronized DurableLog.Base base() {
      return DurableJson.decodeBase(base);
    }

    synchronized List<DurableGate.Batch> batches() {
      return batches.stream().map(DurableJson::decodeBatch).toList();
    }

    /** What the next term recovers from. */
    DurableLog.Recovered recovered(long term) {
      return DurableLog.recover(base(), batches(), term);
    }

    @Override
    public Future<Void> start(Context context, PoolConfig config, Candidate candidate) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> stop() {
      return Future.succeededFuture();
    }

    @Override
    public void resign(long term) {}

    @Override
    public HaStatus status(long term) {
      return new HaStatus(true, true, "test", term);
    }
  }

  /** A coordinator leading {@code term} on its own Vert.x instance and clock. */
  private static final class Leader implements AutoCloseable {
    final Vertx vertx = Vertx.vertx();
    final FakeTime time;
    final Context context = vertx.getOrCreateContext();
    final Coordinator coordinator;
    final List<Outcome> answers = new CopyOnWriteArrayList<>();

    Leader(FakeTime time, Store store, long term, DurableLog.Recovered recovered) {
      this.time = time.installOn(vertx);
      // As a clustered node parses it (HA needs one); the test plays the cluster's store.
      PoolConfig parsed = PoolConfig.parse(demoPool(POOL, 1)
          .put("ha", new JsonObject().put("enabled", true)), "", true);
      PoolConfig config = parsed.withSettings(parsed.settings().withTerm(term));
      coordinator = on(() -> {
        Coordinator c = new Coordinator(vertx, context, config);
        c.lead(term, time.monotonicMs(), TermRunner.LEASE_MS, store, why -> { });
        c.start();
        c.recover(recovered);
        return c;
      });
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          on(() -> coordinator.snapshot().slots().get(0).phase() == Phase.IDLE));
    }

    /**
     * {@code action} on the coordinator's context, after everything queued there before it: a
     * write acknowledged, or effects that may leave, have left by then.
     */
    <T> T on(Supplier<T> action) {
      Promise<T> done = Promise.promise();
      context.runOnContext(v -> {
        try {
          done.complete(action.get());
        } catch (RuntimeException | AssertionError e) {
          done.fail(e);
        }
      });
      return join(done.future());
    }

    void submit(String job, JsonObject payload, long delayMs) {
      on(() -> {
        coordinator.submit(new Requests.Submit(job, payload, null, null, 10_000, 0, delayMs,
            null), answers::add);
        return null;
      });
    }

    /** The answers that left the gate by now, after what was queued on the context. */
    List<Outcome> answersLeft() {
      return on(() -> List.copyOf(answers));
    }

    /** Waits until {@code job}'s admission left (its records written). */
    void awaitAccepted(String job) {
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
          .until(() -> answersLeft().contains(new Outcome.Accepted(job)));
    }

    JobView lookup(String job) {
      return on(() -> coordinator.jobs().lookup(job));
    }

    @Override
    public void close() {
      // As a node leaving the pool does: its incarnations gone before Vert.x undeploys the rest
      // (else Vert.x logs "Undeploy failed: Already undeployed" for each).
      join(on(() -> {
        coordinator.abandon();
        return Future.join(coordinator.slots().values().stream()
            .map(SlotHandle::undeployed).toList());
      }));
      join(vertx.close());
    }
  }

  private static boolean rejected(List<Outcome> answers, String job) {
    return answers.stream().anyMatch(o -> o instanceof Outcome.Rejected r && r.job().equals(job)
        && r.reason() == RejectionReason.DUPLICATE_JOB);
  }

  @Nested
  class Lease {

    @Test
    void A2_a_leader_paused_past_its_lease_lets_nothing_out_though_the_wall_clock_went_back() {
      Store store = new Store();
      try (Leader leader = new Leader(new FakeTime(), store, 1,
          new DurableLog.Recovered(DurableImage.empty(0), List.of()))) {
        leader.submit("held", hang(), 0);
        leader.awaitAccepted("held");

        store.hold();
        leader.time.advance(TermRunner.LEASE_MS);
        leader.time.stepWall(-60_000);
        leader.submit("held", hang(), 0);

        assertThat(rejected(leader.answersLeft(), "held"))
            .as("a rejection needs no record, only a fresh lease: it waits").isFalse();
        store.acknowledgeHeld();
        await().atMost(PoolFixture.STEP).until(() -> rejected(leader.answersLeft(), "held"));
      }
    }

    @Test
    void A2_a_fresh_lease_stays_fresh_when_the_wall_clock_jumps_forward() {
      Store store = new Store();
      try (Leader leader = new Leader(new FakeTime(), store, 1,
          new DurableLog.Recovered(DurableImage.empty(0), List.of()))) {
        leader.submit("held", hang(), 0);
        leader.awaitAccepted("held");

        store.hold();
        leader.time.stepWall(60_000);
        leader.time.advance(1);
        leader.submit("held", hang(), 0);

        assertThat(rejected(leader.answersLeft(), "held"))
            .as("left at once, on a lease a millisecond old, with no write").isTrue();
        store.acknowledgeHeld();
      }
    }
  }

  @Test
  void J4_a_waiting_job_is_journaled_in_wall_time_and_due_at_the_same_instant_after_takeover() {
    Store store = new Store();
    FakeTime first = new FakeTime();
    long dueWall;
    try (Leader leader = new Leader(first, store, 1,
        new DurableLog.Recovered(DurableImage.empty(0), List.of()))) {
      leader.submit("early", echo("early"), 10_000);
      leader.awaitAccepted("early");
      leader.submit("late", echo("late"), 20_000);
      leader.awaitAccepted("late");
      dueWall = leader.lookup("early").dueAt();
      assertThat(dueWall).isEqualTo(FakeTime.WALL_START + 10_000);
      leader.time.advance(4_000);
    }
    assertThat(store.base().image().jobs()).extracting(DurableImage.JobImage::dueAt)
        .as("the checkpoint's waiting job, in wall time").contains(dueWall);
    assertThat(store.batches()).flatExtracting(DurableGate.Batch::records)
        .filteredOn(DurableRecord.Accepted.class::isInstance)
        .extracting(r -> ((DurableRecord.Accepted) r).dueAt())
        .as("a later batch's accepted record, in wall time")
        .containsExactly(FakeTime.WALL_START + 20_000);

    // Another JVM: its monotonic clock started elsewhere; its wall clock agrees with the first's.
    FakeTime second = new FakeTime(900_000_000, first.wallMs());
    try (Leader successor = new Leader(second, store, 2, store.recovered(1))) {
      JobView waiting = successor.lookup("early");
      assertThat(waiting.state()).isEqualTo(JobView.JobState.WAITING);
      assertThat(waiting.dueAt()).isEqualTo(dueWall);

      successor.time.advance(5_999);
      assertThat(successor.lookup("early").state()).isEqualTo(JobView.JobState.WAITING);
      successor.time.advance(1);
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
          successor.lookup("early").state() == JobView.JobState.ANSWERED);
      assertThat(successor.lookup("late").state()).isEqualTo(JobView.JobState.WAITING);
    }
  }
}
