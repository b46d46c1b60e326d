package dev.shepherd.runtime.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.BudgetReaction;
import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Notice;
import dev.shepherd.runtime.payload.LogText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * J8: the words an incident is told in, checked against the cases the live view is checked
 * against too ({@code src/test/js/incident-words.json}), so the log and the page say the same.
 */
class IncidentWordsTest {
  private static final UnaryOperator<String> PLAIN = s -> s;
  private static final JsonObject CASES = cases();

  private static JsonObject cases() {
    try {
      return new JsonObject(Files.readString(Path.of("src", "test", "js", "incident-words.json"),
          StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<JsonObject> all(String field) {
    return CASES.getJsonArray(field).stream().map(JsonObject.class::cast).toList();
  }

  private static Notice.BudgetExceeded refusal(JsonObject e) {
    List<String> jobs = e.getJsonArray("jobs").stream().map(String::valueOf).toList();
    return new Notice.BudgetExceeded(e.getString("worker"), e.getInteger("restartsInWindow"),
        e.getInteger("replacementsRequested"), e.getInteger("maximumRestarts"),
        BudgetReaction.valueOf(e.getString("reaction")), Exit.valueOf(e.getString("exit")),
        e.getString("cause"), jobs, e.getInteger("slotRestarts"));
  }

  private static long window(JsonObject c) {
    Long ms = c.getLong("windowMs");
    return ms == null ? Long.MAX_VALUE : ms;
  }

  @Nested
  class BudgetRefusals {
    @Test
    void J8_every_case_reads_as_the_live_view_reads_it() {
      assertThat(all("refusals")).hasSizeGreaterThanOrEqualTo(5);
      for (JsonObject c : all("refusals")) {
        Notice.BudgetExceeded b = refusal(c.getJsonObject("event"));
        assertThat(IncidentWords.budget(b.restartsInWindow(), b.replacementsRequested(),
            b.maximumRestarts(), window(c), b.worker(), b.slotRestarts()))
            .as(c.getString("name")).isEqualTo(c.getString("budget"));
        assertThat(IncidentWords.budgetRefusal(b, window(c), PLAIN)).as(c.getString("name"))
            .isEqualTo(c.getString("refusal"));
        assertThat(IncidentWords.retiredByBudget(b, window(c), PLAIN)).as(c.getString("name"))
            .isEqualTo(c.getString("retired"));
      }
    }

    @Test
    void J8_the_pools_numbers_are_said_as_the_pools_and_the_slots_own_as_its_own() {
      Notice.BudgetExceeded b = new Notice.BudgetExceeded("w-2", 6, 1, 6,
          BudgetReaction.RETIRE_WORKER, Exit.CRASH, "boom", List.of("job-17"), 0);
      String words = IncidentWords.retiredByBudget(b, 10_000, PLAIN);
      assertThat(words).contains("the pool's restart budget", "6 of 6 restarts",
          "across all slots", "w-2 itself restarted 0 times", "job-17");
    }

    @Test
    void J8_job_ids_and_causes_are_quoted_for_a_log_line() {
      Notice.BudgetExceeded b = new Notice.BudgetExceeded("w-2", 5, 1, 5,
          BudgetReaction.RETIRE_WORKER, Exit.CRASH, "boom\nFORGED", List.of("j\n1"), 1);
      String line = IncidentWords.retiredByBudget(b, 10_000, LogText::quote);
      assertThat(line).doesNotContain("\n")
          .endsWith("it stopped (CRASH: \"boom\\nFORGED\") while running job \"j\\n1\"");
    }
  }

  @Nested
  class Stops {
    @Test
    void J8_the_running_jobs_are_named_and_many_are_counted() {
      assertThat(IncidentWords.stop("CRASH", null, List.of(), 0, PLAIN))
          .isEqualTo("it stopped (CRASH) with no job running");
      assertThat(IncidentWords.stop("TIMEOUT", "slow", List.of("a"), 1, PLAIN))
          .isEqualTo("it stopped (TIMEOUT: slow) while running job a");
      assertThat(IncidentWords.running(List.of("a", "b", "c"), 3, PLAIN))
          .isEqualTo("while running jobs a, b and c");
      assertThat(IncidentWords.running(List.of("a", "b", "c", "d"), 4, PLAIN))
          .isEqualTo("while running 4 jobs: a, b, c, …");
      assertThat(IncidentWords.running(List.of("a", "b"), 40, PLAIN))
          .as("more jobs than listed").isEqualTo("while running 40 jobs: a, b, …");
    }
  }

  @Nested
  class Poison {
    @Test
    void J2_J8_a_poisoned_job_is_told_with_its_stops_and_the_last_one() {
      for (JsonObject c : all("poison")) {
        JsonObject last = c.getJsonObject("last");
        Interruption.Poison poison = new Interruption.Poison(c.getInteger("stops"),
            new Interruption.WorkerStopped(last.getString("worker"),
                Exit.valueOf(last.getString("exit")), last.getString("cause")));
        assertThat(IncidentWords.poisoned(c.getString("job"), poison, PLAIN))
            .isEqualTo(c.getString("words"));
      }
    }
  }

  @Test
  void durations_are_written_as_the_live_view_writes_them() {
    for (Object o : CASES.getJsonArray("durations")) {
      JsonArray c = (JsonArray) o;
      assertThat(IncidentWords.duration(c.getLong(0))).isEqualTo(c.getString(1));
    }
  }
}
