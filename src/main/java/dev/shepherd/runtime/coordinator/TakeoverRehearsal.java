package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.Scheduler;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;

/**
 * A takeover rehearsed, once per JVM while a node stands by, so that a standby that takes over
 * runs its coordinator's first turns warm: a term's real {@link Coordinator}, leading through
 * its real {@link DurableLeader}, started and recovered, then serving
 * made-up jobs on its real local slots, all on ports of its own ({@link PoolPorts}): its turns
 * on a queue run by the calling thread, a clock that stands still, timers that never fire,
 * writes acknowledged at once, sends that go nowhere, and incarnations that complete each job
 * at once ({@link RehearsalDeployments}) without making the pool's handler. Nothing leaves
 * it: no Vert.x, no bus, no observers, no log of the pool. On a cold standby the coordinator's
 * loop spent most of a takeover's first turns linking lambdas and loading classes
 * (docs/benchmarks.md, HA section).
 */
public final class TakeoverRehearsal {
  private TakeoverRehearsal() {}

  /**
   * Rehearses a takeover of the pool of {@code config} (durable), from a journal of its first
   * term that holds nothing (whatever the pool's settings, its recovery keeps within them; the
   * reading of a large journal is {@code RecoveryWarmUp}'s), then {@code jobs} made-up jobs: how
   * many of them the coordinator answered.
   */
  public static int run(PoolConfig config, int jobs) {
    DurableLog.Recovered recovered = new DurableLog.Recovered(DurableImage.empty(1), List.of());
    ArrayDeque<Runnable> turns = new ArrayDeque<>();
    long term = recovered.image().term() + 1;
    PoolConfig termConfig = config.withSettings(config.settings().withTerm(term));
    Coordinator coordinator = new Coordinator(null, null, termConfig,
        new PoolPorts(STILL, NEVER, turns::add, (address, body) -> { },
            () -> new RehearsalDeployments(turns::add)));
    coordinator.lead(term, STILL.monotonicMs(), TermRunner.LEASE_MS, ACKNOWLEDGING, why -> { });
    coordinator.start();
    coordinator.recover(recovered, Map.of());
    drain(turns);
    int[] answers = {0};
    Responder counting = outcome -> {
      if (outcome.terminal()) {
        answers[0]++;
      }
    };
    for (int i = 0; i < jobs; i++) {
      int n = i;
      turns.add(() -> coordinator.submit(new Requests.Submit("rehearsal-" + n,
          new JsonObject().put("n", n), n % 8 == 0 ? "key-" + n % 64 : null, null, 0, 16, 0,
          null, null, 5), counting));
      if (i % 64 == 63) {
        drain(turns);
      }
    }
    drain(turns);
    coordinator.abandon();
    drain(turns);
    return answers[0];
  }

  /** Runs the queued turns, and those they queue, until none is left. */
  private static void drain(ArrayDeque<Runnable> turns) {
    Runnable next;
    while ((next = turns.poll()) != null) {
      next.run();
    }
  }

  /** A clock that stands still: no lease runs out, no deadline comes. */
  private static final RuntimeClock STILL = new RuntimeClock() {
    @Override
    public long monotonicMs() {
      return 1_000;
    }

    @Override
    public long wallMs() {
      return 1_800_000_000_000L;
    }

    @Override
    public long wallOffsetMs() {
      return 1_800_000_000_000L - 1_000;
    }
  };

  /** Timers that never fire. */
  private static final Scheduler NEVER = new Scheduler() {
    @Override
    public long at(long deadline, Runnable task) {
      return 0;
    }

    @Override
    public long after(long delayMs, Runnable task) {
      return 0;
    }

    @Override
    public long every(long periodMs, Runnable task) {
      return 0;
    }

    @Override
    public boolean cancel(long id) {
      return false;
    }
  };

  /** A store that acknowledges every write at once, and a term nobody else claims. */
  private static final Leadership ACKNOWLEDGING = new Leadership() {
    @Override
    public Future<Void> start(Context context, PoolConfig config, Candidate candidate) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> stop() {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base base) {
      return Future.succeededFuture();
    }

    @Override
    public void resign(long term) {}

    @Override
    public HaStatus status(long term) {
      return new HaStatus(true, true, "rehearsal", term);
    }
  };
}
