package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** "Collect this turn, flush once": what every per-turn batch of the runtime relies on. */
class TurnBufferTest {
  /** The context's queue of tasks: a test runs them one by one, as the event loop would. */
  private final ArrayDeque<Runnable> queued = new ArrayDeque<>();
  private final List<List<String>> flushed = new ArrayList<>();

  private TurnBuffer<String> buffer(int cap) {
    return new TurnBuffer<>(queued::add, cap, flushed::add);
  }

  @Test
  void itemsOfOneTurnLeaveTogetherOnceTheTasksQueuedBeforeTheFlushHaveRun() {
    TurnBuffer<String> turn = buffer(TurnBuffer.UNCAPPED);
    queued.add(() -> turn.add("b"));
    turn.add("a");
    assertThat(queued).hasSize(2);
    queued.poll().run();
    assertThat(flushed).isEmpty();
    queued.poll().run();
    assertThat(flushed).containsExactly(List.of("a", "b"));
    assertThat(queued).isEmpty();
  }

  @Test
  void oneFlushIsQueuedPerTurnHoweverManyItemsArrive() {
    TurnBuffer<String> turn = buffer(TurnBuffer.UNCAPPED);
    for (int i = 0; i < 100; i++) {
      turn.add("x" + i);
    }
    assertThat(queued).hasSize(1);
    queued.poll().run();
    assertThat(flushed).hasSize(1);
    assertThat(flushed.get(0)).hasSize(100).startsWith("x0", "x1").endsWith("x99");
    turn.add("next");
    assertThat(queued).as("a new turn queues a new flush").hasSize(1);
  }

  @Test
  void reachingTheCapFlushesAtOnce() {
    TurnBuffer<String> turn = buffer(2);
    turn.add("a");
    turn.add("b");
    turn.add("c");
    assertThat(flushed).containsExactly(List.of("a", "b"));
    while (!queued.isEmpty()) {
      queued.poll().run();
    }
    assertThat(flushed).containsExactly(List.of("a", "b"), List.of("c"));
  }

  @Test
  void anEarlyFlushLeavesNothingForTheTurnsEndAndADropSendsNothing() {
    TurnBuffer<String> turn = buffer(TurnBuffer.UNCAPPED);
    turn.add("a");
    turn.flush();
    turn.add("b");
    turn.drop();
    assertThat(turn.size()).isZero();
    while (!queued.isEmpty()) {
      queued.poll().run();
    }
    assertThat(flushed).containsExactly(List.of("a"));
  }

  @Test
  void aCapBelowOneIsRefused() {
    assertThatThrownBy(() -> buffer(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
