package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Caller-runs turns ({@link Inbox}, {@link CallerRuns}): one turn at a time whoever runs it, no
 * task left behind, a caller kept for a bounded number of tasks only.
 */
class InboxCallerRunsTest {
  /** The coordinator context's queue: a test runs its tasks one by one, as the event loop would. */
  private final ArrayDeque<Runnable> context = new ArrayDeque<>();
  private final List<String> ran = new ArrayList<>();
  private int turnsEnded;

  private Inbox inbox(boolean callerRuns) {
    return new Inbox(context::add, () -> turnsEnded++, callerRuns);
  }

  private void runContext() {
    Runnable task;
    while ((task = context.poll()) != null) {
      task.run();
    }
  }

  @Test
  void offTheTaskWaitsForTheContextsTurn() {
    Inbox inbox = inbox(false);
    inbox.offer(() -> ran.add("a"));
    inbox.offer(() -> ran.add("b"));
    assertThat(ran).isEmpty();
    assertThat(context).hasSize(1);
    runContext();
    assertThat(ran).containsExactly("a", "b");
    assertThat(turnsEnded).isEqualTo(1);
  }

  @Test
  void onTheCallerRunsTheTurnAndTheContextIsNotWoken() {
    Inbox inbox = inbox(true);
    inbox.offer(() -> ran.add("a"));
    assertThat(ran).containsExactly("a");
    assertThat(turnsEnded).isEqualTo(1);
    assertThat(context).isEmpty();
  }

  @Test
  void aBusyPoolLeavesTheTurnToTheContextAndAQuietOneGivesItBack() {
    Inbox inbox = inbox(true);
    inbox.quiet(false);
    inbox.offer(() -> ran.add("a"));
    inbox.offer(() -> ran.add("b"));
    assertThat(ran).isEmpty();
    assertThat(context).hasSize(1);
    runContext();
    assertThat(ran).containsExactly("a", "b");
    assertThat(turnsEnded).isEqualTo(1);

    inbox.quiet(true);
    inbox.offer(() -> ran.add("c"));
    assertThat(ran).containsExactly("a", "b", "c");
    assertThat(context).isEmpty();
  }

  @Test
  void aTaskHandedInDuringATurnRunsAfterTheCurrentTaskInTheSameCallersTurns() {
    Inbox inbox = inbox(true);
    inbox.offer(() -> {
      inbox.offer(() -> ran.add("inner"));
      ran.add("outer");
    });
    assertThat(ran).containsExactly("outer", "inner");
    assertThat(context).isEmpty();
  }

  @Test
  void aCallerRunsAtMostItsBudgetAndHandsTheRestToTheContext() {
    Inbox inbox = inbox(true);
    AtomicInteger count = new AtomicInteger();
    Runnable[] spawn = new Runnable[1];
    spawn[0] = () -> {
      if (count.incrementAndGet() < 3 * Inbox.CALLER_BUDGET) {
        inbox.offer(spawn[0]);
      }
    };
    inbox.offer(spawn[0]);
    assertThat(count.get()).isEqualTo(Inbox.CALLER_BUDGET);
    assertThat(context).hasSize(1);
    runContext();
    assertThat(count.get()).isEqualTo(3 * Inbox.CALLER_BUDGET);
  }

  @Test
  void theContextsTurnFindsTheFlagTakenAndLeavesTheWorkToItsHolder() {
    Inbox inbox = inbox(true);
    inbox.offer(() -> {
      // A context drain that runs while this caller's turn holds the flag must not run a task.
      inbox.offer(() -> ran.add("queued"));
      for (int i = 0; i < 2 * Inbox.CALLER_BUDGET; i++) {
        inbox.offer(() -> { });
      }
      ran.add("first");
    });
    assertThat(ran).containsExactly("first", "queued");
    runContext();
    assertThat(ran).containsExactly("first", "queued");
  }

  @Test
  void aBusyPoolsMessageOnTheContextRunsAtOnceAfterWhatWaitedAndLeavesTheTurnsEndToADrain() {
    Inbox inbox = inbox(true);
    inbox.quiet(false);
    inbox.offer(() -> ran.add("handed in"));
    assertThat(context).hasSize(1);
    inbox.onContext(ran::add, "message");
    inbox.onContext(ran::add, "next message");
    assertThat(ran).containsExactly("handed in", "message", "next message");
    assertThat(turnsEnded).isZero();
    runContext();
    assertThat(turnsEnded).isEqualTo(1);
    assertThat(context).isEmpty();
  }

  @Test
  void aQuietPoolsMessageOnTheContextIsACallersTurnThatEndsAtOnce() {
    Inbox inbox = inbox(true);
    inbox.onContext(ran::add, "message");
    assertThat(ran).containsExactly("message");
    assertThat(turnsEnded).isEqualTo(1);
    assertThat(context).isEmpty();
  }

  @Test
  void aMessageOnTheContextDuringAnotherTurnWaitsForThatTurnsRecheck() {
    Inbox inbox = inbox(true);
    inbox.quiet(false);
    inbox.offer(() -> ran.add("first"));
    // The context's drain takes the flag; a message arriving inside it (a re-entrant entry)
    // must not run beside the turn under way.
    inbox.offer(() -> {
      inbox.onContext(ran::add, "message");
      ran.add("second");
    });
    runContext();
    assertThat(ran).containsExactly("first", "second", "message");
  }

  @Test
  void offAMessageOnTheContextIsHandedInAsAnyEntry() {
    Inbox inbox = inbox(false);
    inbox.onContext(ran::add, "message");
    assertThat(ran).isEmpty();
    runContext();
    assertThat(ran).containsExactly("message");
  }

  @Test
  void manyThreadsHandingInRunEveryTaskOnceAndNeverTwoTurnsAtOnce() throws Exception {
    ConcurrentLinkedQueue<Runnable> contextQueue = new ConcurrentLinkedQueue<>();
    AtomicInteger inTurn = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    int[] unguarded = new int[1];
    Inbox inbox = new Inbox(contextQueue::add, () -> { }, true);
    int threads = 4;
    int each = 20_000;
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread thread = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < each; i++) {
          inbox.offer(() -> {
            if (inTurn.incrementAndGet() != 1) {
              overlaps.incrementAndGet();
            }
            unguarded[0]++;
            inTurn.decrementAndGet();
          });
        }
      });
      thread.start();
      callers.add(thread);
    }
    go.countDown();
    for (Thread thread : callers) {
      thread.join();
    }
    Runnable task;
    while ((task = contextQueue.poll()) != null) {
      task.run();
    }
    assertThat(overlaps.get()).isZero();
    assertThat(unguarded[0]).isEqualTo(threads * each);
  }
}
