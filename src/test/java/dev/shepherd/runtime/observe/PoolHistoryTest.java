package dev.shepherd.runtime.observe;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.phaseIs;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link PoolHistory}: what a live view opened later is told about the past, and that it stays
 * bounded whatever the pool does; and the {@code <prefix>.history} frame of a real pool after an
 * incident.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolHistoryTest {
  private static final long T0 = 1_700_000_000_000L; // a whole second
  private long now = T0;
  private final PoolHistory history = new PoolHistory(() -> now);

  private static JsonObject event(String type, String worker, long at) {
    return new JsonObject().put("type", type).put("pool", "p").put("at", at)
        .put("worker", worker);
  }

  private static JsonObject job(long at) {
    return new JsonObject().put("type", "job").put("pool", "p").put("at", at)
        .put("outcome", new JsonObject().put("type", "rejected").put("job", "j" + at));
  }

  private List<JsonObject> events() {
    return history.frame("p", now).getJsonArray("events").stream()
        .map(JsonObject.class::cast).toList();
  }

  @Test
  void the_frame_has_the_shape_the_live_view_reads() {
    JsonObject frame = history.frame("p", T0);
    assertThat(frame.fieldNames()).containsExactlyInAnyOrder("type", "pool", "at", "events",
        "series", "lastExits");
    assertThat(frame.getString("type")).isEqualTo("history");
    assertThat(frame.getString("pool")).isEqualTo("p");
    assertThat(frame.getLong("at")).isEqualTo(T0);
    assertThat(frame.getJsonArray("events")).isEmpty();
    assertThat(frame.getJsonArray("series")).isEmpty();
    assertThat(frame.getJsonObject("lastExits")).isEmpty();
  }

  private static JsonObject outcome(String type, long at, JsonObject reason) {
    JsonObject outcome = new JsonObject().put("type", type).put("job", "j" + at);
    if (reason != null) {
      outcome.put("reason", reason);
    }
    return new JsonObject().put("type", "job").put("pool", "p").put("at", at)
        .put("outcome", outcome);
  }

  private static JsonObject poison(long at) {
    return outcome("interrupted", at, new JsonObject().put("kind", "POISON").put("stops", 2));
  }

  private static JsonObject deadLettered(long at) {
    return new JsonObject().put("type", "deadLettered").put("pool", "p").put("at", at)
        .put("job", "d" + at).put("reason", "POISON").put("worker", "w-0").put("attempts", 2)
        .put("size", 1);
  }

  private long count(String type) {
    return events().stream().filter(e -> type.equals(e.getString("type"))).count();
  }

  @Nested
  class ByKind {
    @Test
    void events_come_oldest_first_and_each_ring_keeps_its_newest() {
      for (int i = 0; i < PoolHistory.Kind.STOPS.limit + 30; i++) {
        history.published(event("restart", "w-0", T0 + 2L * i));
      }
      for (int i = 0; i < PoolHistory.Kind.REJECTIONS.limit + 30; i++) {
        history.published(job(T0 + 2L * i + 1));
      }
      List<JsonObject> events = events();
      assertThat(events).hasSize(PoolHistory.Kind.STOPS.limit
          + PoolHistory.Kind.REJECTIONS.limit);
      assertThat(events.stream().mapToLong(e -> e.getLong("at")).toArray()).isSorted();
      assertThat(count("job")).isEqualTo(PoolHistory.Kind.REJECTIONS.limit);
      assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("restart");
      assertThat(events.get(0).getLong("at")).as("the oldest kept restart")
          .isEqualTo(T0 + 2L * 30);
    }

    @Test
    void J8_a_flood_of_rejections_does_not_push_out_what_caused_them() {
      history.published(event("restart", "w-1", T0).put("exit", "CRASH"));
      history.published(event("budget", "w-1", T0 + 1));
      history.published(poison(T0 + 2));
      history.published(deadLettered(T0 + 2));
      history.published(outcome("failed", T0 + 3, null));
      history.published(event("host", null, T0 + 4).put("host", "h1").put("state", "LOST"));
      for (int i = 0; i < 10_000; i++) {
        history.published(job(T0 + 10 + i));
      }
      assertThat(events()).extracting(e -> e.getString("type")).contains("restart", "budget",
          "deadLettered", "host");
      assertThat(events()).filteredOn(e -> "job".equals(e.getString("type")))
          .extracting(e -> e.getJsonObject("outcome").getString("type"))
          .contains("interrupted", "failed");
      assertThat(count("job")).isEqualTo(PoolHistory.Kind.REJECTIONS.limit + 2);
    }

    @Test
    void J8_a_flood_of_one_kind_of_incident_does_not_push_out_another() {
      history.published(event("retired", "w-3", T0).put("retirement", "CREATION_REJECTED"));
      history.published(event("revive", "w-3", T0 + 1)); // so the retirement is not current
      history.published(poison(T0 + 2));
      history.published(event("budget", "w-2", T0 + 3));
      for (int i = 0; i < 5_000; i++) {
        history.published(event("restart", "w-0", T0 + 10 + i));
        history.published(event("phase", "w-0", T0 + 10 + i).put("phase", "IDLE"));
        history.published(deadLettered(T0 + 10 + i));
        history.published(new JsonObject().put("type", "deadLetterRemoved").put("pool", "p")
            .put("at", T0 + 10 + i).put("job", "d" + i).put("why", "EVICTED").put("size", 1));
      }
      assertThat(count("retired")).isEqualTo(1);
      assertThat(count("revive")).isEqualTo(1);
      assertThat(count("budget")).isEqualTo(1);
      assertThat(events()).anyMatch(e -> e.equals(poison(T0 + 2)));
      assertThat(count("deadLettered")).isEqualTo(PoolHistory.Kind.DEAD_LETTERED.limit);
    }

    @Test
    void every_kind_is_bounded_and_an_unknown_type_has_a_ring_of_its_own() {
      for (int i = 0; i < 1_000; i++) {
        for (String type : List.of("restart", "phase", "retired", "budget", "deadLettered",
            "deadLetterRemoved", "revive", "host", "state", "recovered", "from-the-future")) {
          history.published(event(type, "w-" + (i % 7), T0 + i));
        }
        history.published(job(T0 + i));
        history.published(poison(T0 + i));
        history.published(outcome("cancelled", T0 + i, null));
        history.published(new JsonObject().put("type", "job").put("at", T0 + i)
            .put("outcome", "not an object"));
      }
      for (PoolHistory.Kind kind : PoolHistory.Kind.values()) {
        assertThat(history.held(kind)).as(kind.name()).isEqualTo(kind.limit);
      }
      int all = java.util.Arrays.stream(PoolHistory.Kind.values()).mapToInt(k -> k.limit).sum();
      assertThat(events().size()).isLessThanOrEqualTo(all + 2 * 7);
    }

    @Test
    void an_event_keeps_a_bounded_number_of_job_ids_and_counts_the_rest() {
      JsonArray many = new JsonArray();
      for (int i = 0; i < 500; i++) {
        many.add("job-" + i);
      }
      JsonObject stop = event("restart", "w-0", T0).put("jobs", many);
      history.published(stop);
      history.published(event("budget", "w-1", T0).put("jobs", new JsonArray().add("a")));
      JsonObject kept = events().stream().filter(e -> "restart".equals(e.getString("type")))
          .findFirst().orElseThrow();
      assertThat(kept.getJsonArray("jobs")).hasSize(PoolHistory.JOBS_KEPT)
          .first().isEqualTo("job-0");
      assertThat(kept.getInteger("jobCount")).isEqualTo(500);
      assertThat(stop.getJsonArray("jobs")).as("the published event is left as it was")
          .hasSize(500);
      JsonObject budget = events().stream().filter(e -> "budget".equals(e.getString("type")))
          .findFirst().orElseThrow();
      assertThat(budget.containsKey("jobCount")).isFalse();
    }
  }

  @Test
  void J8_a_retired_slot_keeps_the_events_that_retired_it_however_much_happens_after() {
    JsonObject budget = event("budget", "w-3", T0).put("restartsInWindow", 5);
    JsonObject retired = event("retired", "w-3", T0).put("retirement", "REPLACEMENT_UNAVAILABLE");
    history.published(budget);
    history.published(retired);
    for (int i = 0; i < 5 * PoolHistory.Kind.RETIREMENTS.limit; i++) {
      history.published(event("retired", "w-" + (10 + i), T0 + 1 + i));
      history.published(event("phase", "w-" + (10 + i), T0 + 1 + i));
      history.published(event("budget", "w-0", T0 + 1 + i));
    }
    List<JsonObject> events = events();
    assertThat(events.subList(0, 2)).containsExactly(budget, retired);
    assertThat(events).hasSize(PoolHistory.Kind.RETIREMENTS.limit
        + PoolHistory.Kind.PHASES.limit + PoolHistory.Kind.BUDGET.limit + 2);

    history.published(event("revive", "w-3", T0 + 10_000));
    assertThat(events()).doesNotContain(budget, retired);
  }

  @Test
  void each_slot_keeps_its_last_exit_with_the_cause_when_the_supervisor_gave_one() {
    history.onStop("w-0", 1, Exit.CRASH);
    history.published(event("restart", "w-0", T0).put("exit", "CRASH").put("cause", "boom"));
    now = T0 + 500;
    history.onStop("w-1", 1, Exit.TIMEOUT);
    JsonObject exits = history.frame("p", now).getJsonObject("lastExits");
    assertThat(exits).isEqualTo(new JsonObject()
        .put("w-0", new JsonObject().put("exit", "CRASH").put("cause", "boom").put("at", T0))
        .put("w-1", new JsonObject().put("exit", "TIMEOUT").putNull("cause")
            .put("at", T0 + 500)));
  }

  @Test
  void last_exits_are_bounded_by_the_slots_they_remember() {
    for (int i = 0; i < PoolHistory.MAX_SLOTS + 50; i++) {
      history.onStop("h" + i + "/w-0", 1, Exit.NODE_LOST);
    }
    JsonObject exits = history.frame("p", now).getJsonObject("lastExits");
    assertThat(exits.size()).isEqualTo(PoolHistory.MAX_SLOTS);
    assertThat(exits.containsKey("h0/w-0")).isFalse();
    assertThat(exits.containsKey("h" + (PoolHistory.MAX_SLOTS + 49) + "/w-0")).isTrue();
  }

  @Test
  void outcomes_are_counted_per_second_for_the_last_SECONDS_seconds() {
    Outcome completed = new Outcome.Completed("a", null, "w-0", 1);
    Outcome failed = new Outcome.Failed("b", new dev.shepherd.core.JobError(500, "x"), "w-0", 1);
    Outcome interrupted = new Outcome.Interrupted("c", null, 1, new Interruption.PoolStopped());
    Outcome rejected = new Outcome.Rejected("d", RejectionReason.BACKLOG_FULL, null, "full");
    history.onOutcome(completed);
    history.onOutcome(completed);
    now = T0 + 999;
    history.onOutcome(failed);
    history.onOutcome(new Outcome.Accepted("e"));
    history.onOutcome(new Outcome.Cancelled("f"));
    now = T0 + 1000;
    history.onOutcome(interrupted);
    now = T0 + 3_500;
    history.onOutcome(rejected);

    JsonArray series = history.frame("p", now).getJsonArray("series");
    assertThat(series).containsExactly(
        second(T0, 2, 1, 0, 0), second(T0 + 1000, 0, 0, 1, 0), second(T0 + 3000, 0, 0, 0, 1));

    now = T0 + 1000L * PoolHistory.SECONDS;
    history.onOutcome(completed);
    series = history.frame("p", now).getJsonArray("series");
    assertThat(series).as("the first second has left the window")
        .containsExactly(second(T0 + 1000, 0, 0, 1, 0), second(T0 + 3000, 0, 0, 0, 1),
            second(now, 1, 0, 0, 0));
    now += 1000L * (PoolHistory.SECONDS - 1);
    assertThat(history.frame("p", now).getJsonArray("series")).containsExactly(
        second(T0 + 1000L * PoolHistory.SECONDS, 1, 0, 0, 0));
    now += 1000;
    assertThat(history.frame("p", now).getJsonArray("series")).isEmpty();
  }

  private static JsonObject second(long at, long completed, long failed, long interrupted,
      long rejected) {
    return new JsonObject().put("at", at).put("completed", completed).put("failed", failed)
        .put("interrupted", interrupted).put("rejected", rejected);
  }

  @Test
  void the_history_of_a_real_pool_tells_of_a_crash_past_the_budget(Vertx vertx) {
    JsonObject config = demoPool("past", 2);
    supervision(config).put("maxRestarts", 1);
    deployReady(vertx, config);
    run(vertx, "past", echo(1));
    run(vertx, "past", crash());
    run(vertx, "past", crash());
    run(vertx, "past", crash());
    JsonObject status = awaitStatus(vertx, "past", s -> PoolFixture.slots(s).stream()
        .anyMatch(x -> "RETIRED".equals(((JsonObject) x).getString("phase"))));
    String retired = PoolFixture.slots(status).stream().map(JsonObject.class::cast)
        .filter(x -> "RETIRED".equals(x.getString("phase"))).findFirst().orElseThrow()
        .getString("id");

    JsonObject frame = request(vertx, Addresses.forPool("past").history(), new JsonObject());

    assertThat(frame.getString("type")).isEqualTo("history");
    assertThat(frame.getString("pool")).isEqualTo("past");
    List<String> kinds = frame.getJsonArray("events").stream().map(JsonObject.class::cast)
        .map(e -> e.getString("type")).toList();
    assertThat(kinds).containsSubsequence("restart", "budget", "retired");
    assertThat(kinds).contains("job");
    assertThat(frame.getJsonObject("lastExits").getJsonObject(retired).getString("exit"))
        .isEqualTo("CRASH");
    long completed = frame.getJsonArray("series").stream().map(JsonObject.class::cast)
        .mapToLong(s -> s.getLong("completed")).sum();
    long interrupted = frame.getJsonArray("series").stream().map(JsonObject.class::cast)
        .mapToLong(s -> s.getLong("interrupted")).sum();
    assertThat(completed).isEqualTo(1);
    assertThat(interrupted).isEqualTo(3);
    awaitStatus(vertx, "past", phaseIs(retired, "RETIRED"));
  }

  @Test
  void J8_a_real_pools_history_keeps_the_retirement_and_its_job_past_a_burst_of_rejections(
      Vertx vertx) {
    JsonObject config = demoPool("burst", 1);
    supervision(config).put("maxRestarts", 0);
    deployReady(vertx, config);
    Outcome crashed = run(vertx, "burst", JobRequest.of(crash()).withJob("the-cause"));
    assertThat(crashed).isInstanceOf(Outcome.Interrupted.class);
    awaitStatus(vertx, "burst", phaseIs("w-0", "RETIRED"));
    for (int i = 0; i < 300; i++) {
      assertThat(run(vertx, "burst", echo(i))).isInstanceOf(Outcome.Rejected.class);
    }

    JsonObject frame = request(vertx, Addresses.forPool("burst").history(), new JsonObject());

    List<JsonObject> events = frame.getJsonArray("events").stream()
        .map(JsonObject.class::cast).toList();
    JsonObject budget = events.stream().filter(e -> "budget".equals(e.getString("type")))
        .findFirst().orElseThrow();
    assertThat(budget.getJsonArray("jobs")).containsExactly("the-cause");
    assertThat(budget.getInteger("slotRestarts")).isZero();
    assertThat(budget.getString("exit")).isEqualTo("CRASH");
    assertThat(events).anyMatch(e -> "retired".equals(e.getString("type")));
    assertThat(events).anyMatch(e -> "job".equals(e.getString("type"))
        && "the-cause".equals(e.getJsonObject("outcome").getString("job")));
    assertThat(events).filteredOn(e -> "job".equals(e.getString("type"))
        && "rejected".equals(e.getJsonObject("outcome").getString("type")))
        .hasSizeLessThanOrEqualTo(PoolHistory.Kind.REJECTIONS.limit).isNotEmpty();
  }
}
