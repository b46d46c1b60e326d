package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Attempt;
import dev.shepherd.core.BudgetReaction;
import dev.shepherd.core.Counters;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.Exit;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import dev.shepherd.core.RateLimit;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.core.Retirement;
import dev.shepherd.runtime.observe.PoolHistory;
import dev.shepherd.runtime.wire.DeadLetterJson;
import dev.shepherd.runtime.wire.EventJson;
import dev.shepherd.runtime.wire.SnapshotJson;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The live view's golden frames: every frame its Node tests ({@code src/test/js}) read, written
 * by the real encoders ({@link EventJson}, {@link SnapshotJson}, {@link DeadLetterJson}, {@link
 * PoolHistory}) into {@code src/test/js/golden/*.json}, which are checked in. A frame the
 * encoders now write differently from the checked-in file fails here, so a change of the wire
 * shows in the diff of those files, and the page's tests read what the server sends, not a
 * drawing of it. Values are chosen to match the defaults of {@code frames.js} (pool {@code jobs},
 * at {@code T0}). Regenerate with {@code -Dgolden.write=true}.
 */
class GoldenFramesTest {
  private static final Path GOLDEN = Path.of("src", "test", "js", "golden");
  private static final String POOL = "jobs";
  /** {@code T0} of frames.js: 2025-01-02T03:04:05Z. */
  private static final long T0 = 1_735_787_045_000L;

  @Test
  void live_view_frames_are_what_the_encoders_write() throws IOException {
    Map<String, JsonObject> files = new LinkedHashMap<>();
    files.put("snapshots.json", snapshots());
    files.put("events.json", events());
    files.put("jobs.json", jobs());
    files.put("dead-letters.json", deadLetters());
    files.put("history.json", history());
    boolean write = Boolean.getBoolean("golden.write");
    StringBuilder stale = new StringBuilder();
    for (Map.Entry<String, JsonObject> file : files.entrySet()) {
      Path path = GOLDEN.resolve(file.getKey());
      String now = file.getValue().encodePrettily() + "\n";
      if (write) {
        Files.createDirectories(GOLDEN);
        Files.writeString(path, now, StandardCharsets.UTF_8);
      } else if (!Files.exists(path)
          || !Files.readString(path, StandardCharsets.UTF_8).equals(now)) {
        stale.append(' ').append(path);
      }
    }
    assertThat(stale).as("the encoders now write other frames than%s; if that is meant,"
        + " regenerate them with: mvn -B -o test -Dtest=GoldenFramesTest -Dgolden.write=true,"
        + " and run the live view's Node tests (LiveViewNodeTest)", stale).isEmpty();
  }

  private static PoolSnapshot.SlotStatus slot(String id) {
    return new PoolSnapshot.SlotStatus(id, Phase.IDLE, 1, 0, List.of(), 1, 0, null, null, null);
  }

  private static Counters zero() {
    return new Counters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** A pool of two idle local slots, as frames.js's {@code snapshotBody()} is. */
  private static PoolSnapshot plain() {
    return new PoolSnapshot(POOL, PoolState.RUNNING, 0, 1000, List.of(slot("w-0"), slot("w-1")),
        zero(), 0, 5, 10_000, List.of());
  }

  /** A highly available pool with a worker host, a busy slot and one backing off. */
  private static PoolSnapshot busy() {
    List<PoolSnapshot.SlotStatus> slots = List.of(
        new PoolSnapshot.SlotStatus("w-0", Phase.ASSIGNED, 2, 1,
            List.of(new PoolSnapshot.AssignmentStatus(7, "job-1")), 2, 1, null, null, null),
        new PoolSnapshot.SlotStatus("w-1", Phase.BACKING_OFF, 1, 0, List.of(), 3, 2, null,
            T0 + 500, null),
        new PoolSnapshot.SlotStatus("h1/w-0", Phase.IDLE, 1, 0, List.of(), 1, 0, null, null,
            "h1"),
        new PoolSnapshot.SlotStatus("w-2", Phase.RETIRED, -1, 0, List.of(), 4, 5,
            Retirement.REPLACEMENT_UNAVAILABLE, null, null));
    return new PoolSnapshot(POOL, PoolState.RUNNING, 3, 1000, slots,
        new Counters(10, 1, 6, 1, 1, 0, 2, 3, 0, 1, 0, 0, 1, 1, 0), 3, 5, 10_000,
        List.of(new PoolSnapshot.HostStatus("h1", "node-b", HostState.UP, List.of("h1/w-0"),
            T0 - 60_000)),
        new HaStatus(true, true, "node-a", 2), 1, T0 + 2_000, 1);
  }

  /** A paused pool with groups (F1, F4, F5): one capped and held, one paused. */
  private static PoolSnapshot flow() {
    PoolSnapshot b = busy();
    return new PoolSnapshot(b.name(), b.state(), 8, b.backlogCapacity(), b.slots(), b.counters(),
        b.restartsInWindow(), b.maxRestarts(), b.windowMs(), b.hosts(), b.ha(),
        b.backlogWaiting(), b.nextDue(), b.deadLetters(), true, T0 - 30_000, List.of(
            new PoolSnapshot.GroupStatus("tenant-a", 1, 5, 2, 100, 1, new RateLimit(5, 1000),
                false, null, T0 + 800),
            new PoolSnapshot.GroupStatus("tenant-b", 0, 3, 0, 0, 2, null, true, T0 - 10_000,
                null)),
        7);
  }

  private static JsonObject snapshots() {
    return new JsonObject()
        .put("snapshot", EventJson.snapshot(POOL, SnapshotJson.encode(plain()), T0))
        .put("busySnapshot", EventJson.snapshot(POOL, SnapshotJson.encode(busy()), T0))
        .put("flowSnapshot", EventJson.snapshot(POOL, SnapshotJson.encode(flow()), T0))
        .put("stats", EventJson.stats(plain(), T0));
  }

  private static JsonObject events() {
    return new JsonObject()
        .put("phase", EventJson.notice(POOL,
            new Notice.PhaseChanged("w-0", Phase.IDLE, 1, null, null), T0))
        .put("backingOff", EventJson.notice(POOL,
            new Notice.PhaseChanged("w-0", Phase.BACKING_OFF, 2, T0 + 500, null), T0))
        .put("retired", EventJson.notice(POOL, new Notice.PhaseChanged("w-0", Phase.RETIRED, 1,
            null, Retirement.REPLACEMENT_UNAVAILABLE), T0))
        .put("restart", EventJson.notice(POOL, new Notice.RestartDecided("w-0", Exit.CRASH,
            null, List.of("w-0"), 0, List.of(), true), T0))
        .put("budget", EventJson.notice(POOL, new Notice.BudgetExceeded("w-0", 5, 1, 5,
            BudgetReaction.RETIRE_WORKER, Exit.CRASH, "boom", List.of("job-17"), 1), T0))
        .put("deadLettered", EventJson.notice(POOL,
            new Notice.DeadLettered("job-1", "POISON", "w-0", 3, 1), T0))
        .put("deadLetterRemoved", EventJson.notice(POOL,
            new Notice.DeadLetterRemoved("job-1", Notice.DeadLetterRemoval.REPLAYED, 0), T0))
        .put("revive", EventJson.notice(POOL,
            new Notice.Revived("w-0", 2, Retirement.REPLACEMENT_UNAVAILABLE, true), T0))
        .put("host", EventJson.notice(POOL,
            new Notice.HostChanged("h1", "node-b", HostState.LOST, "no heartbeat for 5000 ms"),
            T0))
        .put("state", EventJson.notice(POOL, new Notice.PoolStateChanged(PoolState.DRAINING),
            T0))
        .put("recovered", EventJson.notice(POOL, new Notice.Recovered(2, 1, 4, 1), T0))
        .put("paused", EventJson.flow(POOL, "paused", null, new JsonObject().put("name", POOL)
            .put("paused", true).put("pausedSince", T0), T0))
        .put("resumed", EventJson.flow(POOL, "resumed", null, new JsonObject().put("name", POOL)
            .put("paused", false).put("pausedSince", null), T0))
        .put("groupPaused", EventJson.flow(POOL, "group", "tenant-b",
            dev.shepherd.runtime.wire.FlowJson.encode(new PoolSnapshot.GroupStatus("tenant-b", 0,
                3, 2, 0, 1, null, true, T0, null)), T0));
  }

  private static final Interruption.WorkerStopped CRASHED =
      new Interruption.WorkerStopped("w-0", Exit.CRASH, "boom");

  private static JsonObject jobs() {
    return new JsonObject()
        .put("accepted", EventJson.job(POOL, new Outcome.Accepted("job-1"), T0))
        .put("completed", EventJson.job(POOL,
            new Outcome.Completed("job-1", new JsonObject().put("big", "result"), "w-0", 1), T0))
        .put("failed", EventJson.job(POOL, new Outcome.Failed("job-1",
            new JobError(500, "disk full", "java.io.IOException"), "w-0", 1), T0))
        .put("rejected", EventJson.job(POOL, new Outcome.Rejected("job-1",
            RejectionReason.BACKLOG_FULL, "payload", "the backlog holds 1000 of 1000"), T0))
        .put("interrupted", EventJson.job(POOL,
            new Outcome.Interrupted("job-1", "payload", 1, CRASHED), T0))
        .put("exhausted", EventJson.job(POOL, new Outcome.Interrupted("job-1", "payload", 3,
            new Interruption.AttemptsExhausted(3, CRASHED)), T0))
        .put("cancelled", EventJson.job(POOL, new Outcome.Cancelled("job-1"), T0));
  }

  private static JsonObject deadLetters() {
    DeadLetter entry = new DeadLetter("job-1", "k", new JsonObject().put("n", 1), 7, 30_000,
        List.of(new Attempt(1, "w-0", 1, T0 - 2_000, T0 - 1_000, "CRASH", "boom"),
            new Attempt(2, "w-1", 1, T0 - 900, T0 - 100, "CRASH", "boom")),
        new Outcome.Interrupted("job-1", new JsonObject().put("n", 1), 2,
            new Interruption.Poison(2, CRASHED)), T0);
    return new JsonObject().put("entry", DeadLetterJson.encode(entry))
        .put("page", DeadLetterJson.encode(new DeadLetterPage(POOL, 1, 0, 0, 50,
            List.of(entry))));
  }

  private static JsonObject history() {
    PoolHistory history = new PoolHistory(() -> T0);
    return new JsonObject().put("empty", history.frame(POOL, T0));
  }
}
