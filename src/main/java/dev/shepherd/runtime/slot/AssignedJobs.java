package dev.shepherd.runtime.slot;

import dev.shepherd.runtime.Job;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The jobs handed to one incarnation and not yet completed, and who waits for it to hold none.
 * Its owner's context only.
 *
 * <p>Each job is held at a position of an array that the job itself remembers ({@link
 * JobControl#heldAt}), and a completion hands the job back, so a hand-over and a completion each
 * write one array element and touch nothing older. A map by assignment number (a boxed key and a
 * node per job, looked up again a few hundred jobs later when both had left the cache) was a
 * tenth of an in-JVM pool's coordinator. Finding a job by its assignment (a cancel) scans the
 * positions: it is rare, and an incarnation holds at most its slot's capacity.
 */
final class AssignedJobs {
  private Job[] held = new Job[4];
  /** Positions below {@link #used} that hold nothing, {@link #freeCount} of them. */
  private int[] free = new int[4];
  private int freeCount;
  /** Positions ever used: those from here on have never held a job. */
  private int used;
  private int count;
  private Promise<Void> idle;

  void add(Job job) {
    int at;
    if (freeCount > 0) {
      at = free[--freeCount];
    } else {
      if (used == held.length) {
        held = Arrays.copyOf(held, used * 2);
        free = Arrays.copyOf(free, used * 2);
      }
      at = used++;
    }
    held[at] = job;
    JobControl.get().heldAt(job, at);
    count++;
  }

  /**
   * {@code job} completed; completes a waiting {@link #whenIdle} once none is held. A job not
   * held here (completed twice) changes nothing.
   */
  void remove(Job job) {
    int at = JobControl.get().heldAt(job);
    if (at < 0 || at >= used || held[at] != job) {
      return;
    }
    held[at] = null;
    free[freeCount++] = at;
    count--;
    if (count == 0 && idle != null) {
      idle.tryComplete();
    }
  }

  /** The job of {@code assignment}, or null. */
  Job get(long assignment) {
    for (int i = 0; i < used; i++) {
      if (held[i] != null && held[i].assignment() == assignment) {
        return held[i];
      }
    }
    return null;
  }

  /** Every job held, in no particular order. */
  List<Job> all() {
    List<Job> all = new ArrayList<>(count);
    for (int i = 0; i < used; i++) {
      if (held[i] != null) {
        all.add(held[i]);
      }
    }
    return all;
  }

  int size() {
    return count;
  }

  /** Completes {@code promise} once none is held, at once if none is or {@code now}. */
  void whenIdle(Promise<Void> promise, boolean now) {
    idle = promise;
    if (count == 0 || now) {
      promise.tryComplete();
    }
  }

  /** Completes whoever waits for it to hold none: the incarnation was stopped. */
  void released() {
    if (idle != null) {
      idle.tryComplete();
    }
  }
}
