package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.trace.TraceFixture.assertChild;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.JobView;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.trace.JobTrace;
import dev.shepherd.runtime.trace.TraceFixture;
import dev.shepherd.runtime.trace.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * T1 with A3 (docs/rules.md) across a failover of a highly available pool: the old leader
 * journals a traced job's submitter trace beside its admission (as JSON text in the {@link
 * HaTestStore}), and the job's retry on the new leader runs under an {@code attempt} span that is
 * a child of the original caller's span, in the caller's trace, and its {@code queued} span there
 * starts at the original admission (the wall time journaled with the trace); a job submitted
 * outside any trace journals none and starts none.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaTraceFailoverTest {
  private static final String NAME = "ha-traces";
  /** On the event loop, so the old leader's long jobs end with it rather than after them. */
  private static final JsonObject POOL = demoPool(NAME, 2)
      .put("interruption", "RETRY").put("maxAttempts", 3);

  static {
    POOL.getJsonObject("worker").put("threading", "EVENT_LOOP");
  }

  private static boolean running(HaTestLeader leader, String job) {
    JobView view = leader.lookup(job);
    return view != null && view.state() == JobView.JobState.RUNNING;
  }

  private static List<SpanData> spans(TraceFixture fixture, String name, String job) {
    return fixture.named(name).stream()
        .filter(s -> job.equals(s.getAttributes().get(Tracing.JOB))).toList();
  }

  @Test
  void T1_a_job_retried_on_the_new_leader_has_its_attempt_span_under_the_original_callers()
      throws Exception {
    try (TraceFixture fixture = new TraceFixture()) {
      HaTestStore store = new HaTestStore();
      Span caller = fixture.caller("caller");
      JobTrace trace;
      try (Scope scope = caller.makeCurrent()) {
        trace = JobTrace.capture(NAME);
      }
      caller.end();
      FakeTime first = new FakeTime();
      // The fake wall clock stands still until the test moves it: this is the admission's time.
      long admittedAt = first.wallMs();
      try (HaTestLeader leader = new HaTestLeader(fixture.vertx(), first, store, 1,
          new DurableLog.Recovered(DurableImage.empty(0), List.of()), Map.of(), POOL)) {
        leader.submit("traced", sleep(30_000), trace);
        leader.submit("untraced", sleep(30_000), (JobTrace) null);
        leader.awaitAccepted("traced");
        leader.awaitAccepted("untraced");
        await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
            .until(() -> running(leader, "traced") && running(leader, "untraced"));
        leader.time.advance(1_000);
      }

      Map<String, JournalTrace> journaled = store.traces();
      assertThat(journaled).as("the untraced job journals no trace").containsOnlyKeys("traced");
      assertThat(journaled.get("traced").traceparent())
          .contains(caller.getSpanContext().getTraceId())
          .contains(caller.getSpanContext().getSpanId());
      assertThat(journaled.get("traced").admittedAt()).isEqualTo(admittedAt);

      FakeTime second = new FakeTime(700_000_000, first.wallMs());
      try (HaTestLeader successor = new HaTestLeader(fixture.vertx(), second, store, 2,
          store.recovered(1), journaled, POOL)) {
        await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10)).until(() -> {
          successor.time.advance(50);
          JobView view = successor.lookup("traced");
          return view.state() == JobView.JobState.RUNNING && view.attempts() == 2;
        });
        await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
            .until(() -> running(successor, "untraced"));
        assertThat(successor.on(() -> successor.coordinator.traces().trace("traced"))
            .traceparent()).isEqualTo(journaled.get("traced").traceparent());
        // Kept for the next failover's journal too.
        assertThat(successor.on(() -> successor.coordinator.traces().admittedAt("traced", null)))
            .isEqualTo(admittedAt);
        assertThat(successor.on(() -> successor.coordinator.traces().trace("untraced")))
            .isNull();
      }

      // The successor's end ended the retry's attempt: its span is the caller's child.
      await().atMost(Duration.ofSeconds(10))
          .until(() -> spans(fixture, Tracing.ATTEMPT, "traced").stream()
              .anyMatch(s -> Long.valueOf(2).equals(s.getAttributes().get(Tracing.ATTEMPT_NUMBER))));
      SpanData retry = spans(fixture, Tracing.ATTEMPT, "traced").stream()
          .filter(s -> Long.valueOf(2).equals(s.getAttributes().get(Tracing.ATTEMPT_NUMBER)))
          .findFirst().orElseThrow();
      assertChild(retry, caller);
      // The recovered job's queued span (recovery to its retry's dispatch) is the caller's too.
      assertThat(spans(fixture, Tracing.QUEUED, "traced")).hasSizeGreaterThanOrEqualTo(2)
          .allSatisfy(queued -> assertChild(queued, caller));
      // It starts at the original admission (the old leader's wall time), not at the recovery.
      assertThat(spans(fixture, Tracing.QUEUED, "traced"))
          .filteredOn(s -> s.getStartEpochNanos() == TimeUnit.MILLISECONDS.toNanos(admittedAt))
          .hasSize(1);
      assertThat(spans(fixture, Tracing.ATTEMPT, "untraced")).isEmpty();
      assertThat(spans(fixture, Tracing.QUEUED, "untraced")).isEmpty();
    }
  }
}
