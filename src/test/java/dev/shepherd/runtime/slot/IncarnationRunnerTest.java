package dev.shepherd.runtime.slot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.Exit;
import dev.shepherd.runtime.OnException;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The one incarnation lifecycle of local and host slots: what the runner reports, in which order,
 * and what it keeps to itself. The owner's context is the test itself: reports queue up and the
 * test runs them in the order it chooses, so a race is a sequence written down.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IncarnationRunnerTest {

  /** A port that records reports and queues the owner's tasks for the test to run. */
  private static final class RecordingPort implements IncarnationRunner.Port {
    final Vertx vertx;
    final Context deployFrom;
    final ConcurrentLinkedQueue<Runnable> owner = new ConcurrentLinkedQueue<>();
    final List<String> reports = new CopyOnWriteArrayList<>();

    RecordingPort(Vertx vertx) {
      this.vertx = vertx;
      this.deployFrom = vertx.getOrCreateContext();
    }

    /** Waits until {@code count} owner's tasks queued, then takes them, in order. */
    List<Runnable> take(int count) {
      await().atMost(10, TimeUnit.SECONDS).until(() -> owner.size() >= count);
      List<Runnable> tasks = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        tasks.add(owner.poll());
      }
      return tasks;
    }

    @Override
    public String where() {
      return "test";
    }

    @Override
    public Scheduler scheduler() {
      return new Scheduler() {
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
    }

    @Override
    public void execute(Runnable task) {
      owner.add(task);
    }

    @Override
    public void handOver(Context target, Runnable task) {
      target.runOnContext(v -> task.run());
    }

    @Override
    public void created(int incarnation) {
      reports.add("created " + incarnation);
    }

    @Override
    public void creationFailed(int incarnation, String cause) {
      reports.add("creationFailed " + incarnation);
    }

    @Override
    public void ended(int incarnation, Exit exit, String cause) {
      reports.add("ended " + incarnation + " " + exit);
    }

    @Override
    public void completed(Incarnation incarnation,
        List<Incarnation.Completion> done) {
      reports.add("completed " + done.size());
    }

    @Override
    public Future<Void> releasedExternally(Incarnation incarnation) {
      return Future.succeededFuture();
    }
  }

  private static IncarnationRunner runner(RecordingPort port) {
    return new IncarnationRunner("w-0", new IncarnationRunner.Recipe(
        () -> job -> Future.succeededFuture(job.payload()), false, OnException.FAIL_JOB,
        ThreadingModel.EVENT_LOOP, new JsonObject()),
        new VertxDeployments(port.vertx, port.deployFrom), port);
  }

  @Test
  void a_crash_seen_before_the_creation_is_reported_after_it(Vertx vertx) {
    RecordingPort port = new RecordingPort(vertx);
    IncarnationRunner runner = runner(port);
    assertThat(runner.deploy(1)).isTrue();
    Runnable deployed = port.take(1).get(0);
    ((IncarnationVerticle) runner.current()).crash(new IllegalStateException("boom"));
    Runnable crashed = port.take(1).get(0);

    crashed.run();
    assertThat(port.reports).as("nothing before the pool knows the incarnation").isEmpty();
    deployed.run();

    assertThat(port.reports).containsExactly("created 1", "ended 1 CRASH");
    assertThat(runner.state()).isEqualTo(IncarnationRunner.State.ENDED);
  }

  @Test
  void an_incarnation_its_slot_stopped_reports_nothing_more_and_is_undeployed(Vertx vertx) {
    RecordingPort port = new RecordingPort(vertx);
    IncarnationRunner runner = runner(port);
    runner.deploy(1);
    port.take(1).get(0).run();
    IncarnationVerticle first = (IncarnationVerticle) runner.current();

    assertThat(runner.stop(2)).as("not the current incarnation").isFalse();
    assertThat(runner.stop(1)).isTrue();
    first.crash(new IllegalStateException("too late"));
    port.owner.forEach(Runnable::run);

    assertThat(port.reports).containsExactly("created 1");
    assertThat(runner.state()).isEqualTo(IncarnationRunner.State.EMPTY);
    assertThat(runner.undeployed().toCompletionStage().toCompletableFuture())
        .succeedsWithin(java.time.Duration.ofSeconds(10));
    assertThat(vertx.deploymentIDs()).isEmpty();
  }

  @Test
  void a_newer_incarnation_replaces_the_old_one_silently_and_an_older_is_refused(Vertx vertx) {
    RecordingPort port = new RecordingPort(vertx);
    IncarnationRunner runner = runner(port);
    runner.deploy(2);
    port.take(1).get(0).run();

    assertThat(runner.deploy(2)).isFalse();
    assertThat(runner.deploy(1)).isFalse();
    assertThat(runner.deploy(3)).isTrue();
    port.take(1).get(0).run();

    assertThat(port.reports).containsExactly("created 2", "created 3");
    assertThat(runner.runs(3)).isTrue();
    assertThat(runner.runs(2)).isFalse();
  }
}
