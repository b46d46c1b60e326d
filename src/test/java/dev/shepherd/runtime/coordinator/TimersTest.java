package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.Timer;
import dev.shepherd.runtime.time.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's timers (P14's job deadlines and every other {@link Timer}) against a plain
 * model: each timer fires once, when due, in order of expiry and then of start; a cancelled or
 * restarted one fires never or at its new expiry; the entries held stay within about twice the
 * live ones however many were cancelled.
 */
class TimersTest {
  /** A scheduler the test drives: one task per id, run when the test moves time. */
  private static final class ManualScheduler implements Scheduler {
    final TreeMap<Long, Map.Entry<Long, Runnable>> byId = new TreeMap<>();
    long nextId;

    @Override
    public long at(long deadline, Runnable task) {
      long id = nextId++;
      byId.put(id, Map.entry(deadline, task));
      return id;
    }

    @Override
    public long after(long delayMs, Runnable task) {
      throw new UnsupportedOperationException();
    }

    @Override
    public long every(long periodMs, Runnable task) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean cancel(long id) {
      return byId.remove(id) != null;
    }

    /** Runs the tasks due by {@code now}, earliest first. */
    void runDue(long now) {
      while (true) {
        Map.Entry<Long, Map.Entry<Long, Runnable>> due = byId.entrySet().stream()
            .filter(e -> e.getValue().getKey() <= now)
            .min(Comparator.comparingLong(e -> e.getValue().getKey()))
            .orElse(null);
        if (due == null) {
          return;
        }
        byId.remove(due.getKey());
        due.getValue().getValue().run();
      }
    }
  }

  private long now;
  private final ManualScheduler scheduler = new ManualScheduler();
  private final List<Timer> fired = new ArrayList<>();
  private final Timers timers = new Timers(scheduler, () -> now,
      (PoolEvent.TimerFired f) -> fired.add(f.timer()));

  private static Timer deadline(long assignment) {
    return new Timer.JobDeadline("w-0", assignment);
  }

  @Test
  void P14_deadlines_fire_in_order_of_expiry_then_of_start_and_a_cancelled_one_never() {
    timers.start(deadline(1), 100);
    timers.start(deadline(2), 100);
    timers.start(deadline(3), 50);
    timers.start(deadline(4), 100);
    timers.cancel(deadline(2));
    now = 100;
    scheduler.runDue(now);
    assertThat(fired).containsExactly(deadline(3), deadline(1), deadline(4));
    assertThat(timers.size()).isZero();
  }

  @Test
  void P14_a_restarted_timer_fires_once_at_its_new_expiry() {
    timers.start(deadline(1), 100);
    timers.start(deadline(2), 120);
    timers.start(deadline(1), 150);
    now = 130;
    scheduler.runDue(now);
    assertThat(fired).containsExactly(deadline(2));
    now = 150;
    scheduler.runDue(now);
    assertThat(fired).containsExactly(deadline(2), deadline(1));
  }

  @Test
  void P14_a_million_cancelled_deadlines_leave_no_more_entries_than_twice_the_live_ones() {
    for (long a = 0; a < 1_000_000; a++) {
      now = a / 100;
      timers.start(deadline(a), now + 60_000);
      if (a >= 256) {
        timers.cancel(deadline(a - 256));
      }
      assertThat(timers.held()).isLessThanOrEqualTo(2 * timers.size() + 65);
    }
    assertThat(timers.size()).isEqualTo(256);
  }

  @Test
  void closed_timers_fire_nothing() {
    timers.start(deadline(1), 10);
    timers.close();
    now = 10;
    scheduler.runDue(now);
    assertThat(fired).isEmpty();
  }

  /**
   * Seeded random starts, restarts, cancels and moves of time (expiries in and out of start
   * order) against a model that keeps every live timer with its expiry and start number.
   */
  @Test
  void P14_random_starts_and_cancels_fire_as_the_model_says() {
    long seed = Long.getLong("timers.seed", System.nanoTime());
    SplittableRandom random = new SplittableRandom(seed);
    Map<Timer, long[]> model = new HashMap<>();
    List<Timer> expected = new ArrayList<>();
    long seq = 0;
    for (int step = 0; step < 50_000; step++) {
      int what = random.nextInt(10);
      Timer timer = deadline(random.nextInt(40));
      if (what < 5) {
        long at = now + (random.nextInt(4) == 0 ? random.nextInt(30) : 20 + random.nextInt(3));
        timers.start(timer, at);
        model.put(timer, new long[] {at, seq++});
      } else if (what < 8) {
        timers.cancel(timer);
        model.remove(timer);
      } else {
        now += random.nextInt(15);
        model.entrySet().stream()
            .filter(e -> e.getValue()[0] <= now)
            .sorted(Comparator.<Map.Entry<Timer, long[]>>comparingLong(e -> e.getValue()[0])
                .thenComparingLong(e -> e.getValue()[1]))
            .map(Map.Entry::getKey)
            .toList()
            .forEach(t -> {
              expected.add(t);
              model.remove(t);
            });
        scheduler.runDue(now);
        assertThat(fired).as("seed %d", seed).isEqualTo(expected);
        fired.clear();
        expected.clear();
      }
      assertThat(timers.size()).as("seed %d", seed).isEqualTo(model.size());
    }
  }
}
