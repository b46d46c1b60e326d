package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Phase;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.SlotHandle;
import dev.shepherd.runtime.coordinator.TermRunner;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.trace.JobTrace;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** A coordinator leading {@code term} on its own Vert.x instance and clock. */
final class HaTestLeader implements AutoCloseable {
  final Vertx vertx;
  final FakeTime time;
  final Context context;
  final Coordinator coordinator;
  final List<Outcome> answers = new CopyOnWriteArrayList<>();

  HaTestLeader(FakeTime time, HaTestStore store, long term, DurableLog.Recovered recovered) {
    this(time, store, term, recovered, demoPool(HaClockTest.POOL, 1));
  }

  /** A leader of the pool {@code pool} (a pool entry; HA is turned on here). */
  HaTestLeader(FakeTime time, HaTestStore store, long term, DurableLog.Recovered recovered,
      JsonObject pool) {
    this(Vertx.vertx(), time, store, term, recovered, Map.of(), pool);
  }

  /**
   * A leader on {@code vertx} (one that traces, say), recovering {@code recovered} with the
   * traces the journal kept for its jobs (T1 in docs/rules.md).
   */
  HaTestLeader(Vertx vertx, FakeTime time, HaTestStore store, long term,
      DurableLog.Recovered recovered, Map<String, JournalTrace> traces, JsonObject pool) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.time = time.installOn(vertx);
    // As a clustered node parses it (HA needs one); the test plays the cluster's store.
    PoolConfig parsed = PoolConfig.parse(pool.copy()
        .put("ha", new JsonObject().put("enabled", true)), "", true);
    PoolConfig config = parsed.withSettings(parsed.settings().withTerm(term));
    coordinator = on(() -> {
      Coordinator c = new Coordinator(vertx, context, config);
      c.lead(term, time.monotonicMs(), TermRunner.LEASE_MS, store, why -> { });
      c.start();
      c.recover(recovered, traces);
      return c;
    });
    await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() ->
        on(() -> {
          // Installed: idle, or already running a job it recovered.
          Phase phase = coordinator.snapshot().slots().get(0).phase();
          return phase == Phase.IDLE || phase == Phase.ASSIGNED;
        }));
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

  /** Submits {@code job}, answered through {@code responder}. */
  void submit(String job, JsonObject payload, Responder responder) {
    on(() -> {
      coordinator.submit(new Requests.Submit(job, payload, null, null, 10_000, 0, 0, null),
          responder);
      return null;
    });
  }

  /** Submits {@code job} under {@code trace}, the submitter's (T1 in docs/rules.md). */
  void submit(String job, JsonObject payload, JobTrace trace) {
    on(() -> {
      coordinator.submit(new Requests.Submit(job, payload, null, null, 10_000, 0, 0, null),
          answers::add, trace);
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
