package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The id table behind P15 and P17 agrees with a plain map, whatever order jobs end in. */
class JobTableTest {

  @Test
  void P15_table_agrees_with_a_map_under_random_generated_and_chosen_ids() {
    long seed = Long.getLong("shepherd.seed", 20261129L);
    SplittableRandom random = new SplittableRandom(seed);
    JobTable table = new JobTable();
    Map<String, Job> model = new HashMap<>();
    List<Job> live = new ArrayList<>();
    for (int step = 0; step < 300_000; step++) {
      int action = random.nextInt(10);
      if (action < 4) {
        long number = table.nextGenerated();
        String id = JobTable.PREFIX + number;
        assertThat(model).as("seed %d: generated %s is fresh", seed, id).doesNotContainKey(id);
        if (random.nextInt(8) > 0) { // a rejected submit leaves a gap
          add(table, model, live, new Job(id, number, null, null, null, 0, 0, null, null, new FlowGroup(null, null), 5, 0));
        }
      } else if (action < 5) {
        // caller-chosen ids, some of them shaped like generated ones
        String id = random.nextBoolean() ? JobTable.PREFIX + random.nextLong(table.generatedSoFar() + 50)
            : "order-" + random.nextInt(5000);
        if (!model.containsKey(id) && !table.contains(id)) {
          add(table, model, live, new Job(id, 0, null, null, null, 0, 0, null, null, new FlowGroup(null, null), 5, 0));
        }
      } else if (!live.isEmpty()) {
        // mostly the oldest (FIFO), sometimes any: stragglers force the ring to compact
        int at = random.nextInt(20) == 0 ? random.nextInt(live.size()) : 0;
        if (random.nextInt(200) == 0 && live.size() > 1) {
          at = 1; // leave the head behind for a while
        }
        Job victim = live.remove(at);
        table.remove(victim);
        table.remove(victim);
        model.remove(victim.id);
      }
      if (step % 97 == 0) {
        assertThat(table.size()).as("seed %d step %d", seed, step).isEqualTo(model.size());
      }
    }
    assertThat(table.values()).containsExactlyInAnyOrderElementsOf(model.values());
    for (Map.Entry<String, Job> entry : model.entrySet()) {
      assertThat(table.get(entry.getKey())).isSameAs(entry.getValue());
    }
  }

  private static void add(JobTable table, Map<String, Job> model, List<Job> live, Job job) {
    table.add(job);
    model.put(job.id, job);
    live.add(job);
  }

  @Test
  void P15_only_canonical_job_numbers_are_generated_ids() {
    assertThat(JobTable.generatedNumber("job-42")).isEqualTo(42);
    assertThat(JobTable.generatedNumber("job-042")).isZero();
    assertThat(JobTable.generatedNumber("job-")).isZero();
    assertThat(JobTable.generatedNumber("job-4a")).isZero();
    assertThat(JobTable.generatedNumber("Job-4")).isZero();
    assertThat(JobTable.generatedNumber("job-" + "9".repeat(19))).isZero();
  }

  @Test
  void P15_a_caller_chosen_job_number_is_never_generated_while_it_is_held() {
    JobTable table = new JobTable();
    table.add(new Job("job-1", 0, null, null, null, 0, 0, null, null, new FlowGroup(null, null), 5, 0));
    assertThat(table.nextGenerated()).isEqualTo(2);
  }
}
