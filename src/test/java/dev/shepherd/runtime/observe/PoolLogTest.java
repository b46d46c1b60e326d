package dev.shepherd.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.shepherd.LogCapture;
import dev.shepherd.core.BudgetReaction;
import dev.shepherd.core.Exit;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Phase;
import dev.shepherd.core.Retirement;
import dev.shepherd.runtime.payload.LogText;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What an operator reads about an incident: which notices warn and how often. The sentences are
 * {@link IncidentWords}' (tested there); here, that each incident is one warning that carries
 * them, and that what is not a failure does not warn.
 */
class PoolLogTest {
  private static final long WINDOW_MS = 10_000;

  private static Notice retired(String worker, Retirement why) {
    return new Notice.PhaseChanged(worker, Phase.RETIRED, 1, null, why);
  }

  private static Notice.BudgetExceeded refusal(String worker, BudgetReaction reaction) {
    return new Notice.BudgetExceeded(worker, 5, 1, 5, reaction, Exit.CRASH, "boom",
        List.of("job-17"), 1);
  }

  private static List<ILoggingEvent> log(Notice... notices) {
    return observe(pool -> {
      for (Notice n : notices) {
        pool.onNotice(n);
      }
    });
  }

  private static List<ILoggingEvent> observe(Consumer<PoolLog> calls) {
    try (LogCapture log = LogCapture.start("dev.shepherd.pool")) {
      calls.accept(new PoolLog("jobs", WINDOW_MS));
      return log.events().stream().filter(e -> e.getLoggerName().equals("dev.shepherd.pool"))
          .toList();
    }
  }

  @Nested
  class Retirements {
    @Test
    void slots_of_a_host_that_left_on_purpose_are_logged_as_leaving_not_warned() {
      List<ILoggingEvent> events = log(
          new Notice.HostChanged("h2", "node-2", HostState.GONE, null),
          retired("h2/w-0", Retirement.REPLACEMENT_UNAVAILABLE),
          retired("h2/w-1", Retirement.REPLACEMENT_UNAVAILABLE));
      assertThat(events).extracting(ILoggingEvent::getLevel).containsOnly(Level.INFO);
      assertThat(events).extracting(ILoggingEvent::getFormattedMessage)
          .contains("pool jobs: h2/w-0 left with its host", "pool jobs: h2/w-1 left with its host");
    }

    @Test
    void a_retirement_is_a_warning_otherwise_and_again_once_the_host_is_back() {
      List<ILoggingEvent> events = log(
          retired("w-0", Retirement.REPLACEMENT_UNAVAILABLE),
          new Notice.HostChanged("h1", "node-1", HostState.LOST, "left the cluster"),
          retired("h1/w-0", Retirement.HOST_LOST),
          new Notice.HostChanged("h2", "node-2", HostState.GONE, null),
          new Notice.HostChanged("h2", "node-3", HostState.UP, null),
          retired("h2/w-0", Retirement.REPLACEMENT_UNAVAILABLE));
      assertThat(events).filteredOn(e -> e.getFormattedMessage().contains("retired"))
          .extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.WARN, Level.WARN);
    }

    @Test
    void J8_a_retirement_by_the_budget_is_one_warning_with_the_pools_numbers_and_the_job() {
      Notice.BudgetExceeded b = refusal("w-2", BudgetReaction.RETIRE_WORKER);
      List<ILoggingEvent> events = log(b,
          new Notice.DeadLettered("job-17", "POISON", "w-2", 2, 1),
          retired("w-2", Retirement.REPLACEMENT_UNAVAILABLE));
      List<ILoggingEvent> warnings = events.stream().filter(e -> e.getLevel() == Level.WARN)
          .toList();
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0).getFormattedMessage()).isEqualTo("pool jobs: "
          + IncidentWords.retiredByBudget(b, WINDOW_MS, LogText::quote));
    }

    @Test
    void J8_a_budget_refusal_that_stops_the_pool_warns_at_once() {
      Notice.BudgetExceeded b = refusal("w-0", BudgetReaction.STOP_POOL);
      List<ILoggingEvent> events = log(b);
      assertThat(events).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN);
      assertThat(events.get(0).getFormattedMessage()).isEqualTo("pool jobs: "
          + IncidentWords.budgetRefusal(b, WINDOW_MS, LogText::quote));
    }

    @Test
    void a_retirement_by_restart_policy_says_after_which_exit() {
      List<ILoggingEvent> events = observe(pool -> {
        pool.onStop("w-1", 1, Exit.NORMAL);
        pool.onNotice(retired("w-1", Retirement.REPLACEMENT_UNAVAILABLE));
      });
      assertThat(events).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN);
      assertThat(events.get(0).getFormattedMessage()).contains("w-1", "NORMAL");
    }
  }

  @Nested
  class RestartsAndJobs {
    @Test
    void J8_a_restart_is_info_naming_its_jobs_and_whether_the_budget_paid() {
      List<ILoggingEvent> events = log(
          new Notice.RestartDecided("w-0", Exit.CRASH, "boom", List.of("w-0"), 0,
              List.of("j-1"), true),
          new Notice.RestartDecided("w-0", Exit.CRASH, "boom", List.of("w-0"), 200,
              List.of("j-1"), false));
      assertThat(events).extracting(ILoggingEvent::getLevel)
          .containsExactly(Level.INFO, Level.INFO);
      assertThat(events.get(0).getFormattedMessage()).contains("\"j-1\"")
          .doesNotContain("boom").doesNotContain("not charged");
      assertThat(events.get(1).getFormattedMessage()).contains("not charged");
    }

    @Test
    void J2_a_poisoned_job_warns_once_with_its_id_and_stops() {
      Interruption.Poison poison = new Interruption.Poison(2,
          new Interruption.WorkerStopped("w-1", Exit.CRASH, "boom"));
      List<ILoggingEvent> events = observe(pool -> {
        pool.onOutcome(new Outcome.Interrupted("job-9", null, 2, poison));
        pool.onNotice(new Notice.DeadLettered("job-9", "POISON", "w-1", 2, 1));
        pool.onOutcome(new Outcome.Interrupted("job-8", null, 1,
            new Interruption.WorkerStopped("w-1", Exit.CRASH, "boom")));
      });
      assertThat(events).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
          .extracting(ILoggingEvent::getFormattedMessage).containsExactly("pool jobs: "
              + IncidentWords.poisoned("job-9", poison, LogText::quote));
      assertThat(events.get(0).getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void J5_evictions_replays_and_discards_are_info() {
      List<ILoggingEvent> events = log(
          new Notice.DeadLettered("a", "ATTEMPTS_EXHAUSTED", "w-0", 3, 1),
          new Notice.DeadLetterRemoved("b", Notice.DeadLetterRemoval.EVICTED, 1),
          new Notice.DeadLetterRemoved("a", Notice.DeadLetterRemoval.REPLAYED, 0),
          new Notice.DeadLetterRemoved("c", Notice.DeadLetterRemoval.DISCARDED, 0));
      assertThat(events).extracting(ILoggingEvent::getLevel).containsOnly(Level.INFO)
          .hasSize(4);
    }
  }
}
