package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A standby's work ahead of a takeover (A3 in docs/rules.md) runs on a daemon thread of its own,
 * and what it throws (an invariant's {@link AssertionError} too) is reported, never left to end
 * the thread uncaught.
 */
class WarmUpThreadTest {
  @Test
  void A3_a_warm_up_runs_on_a_daemon_thread_of_its_own() throws InterruptedException {
    List<String> ran = new CopyOnWriteArrayList<>();
    Thread thread = WarmUpThread.start("shepherd-test-warm-up",
        () -> ran.add(Thread.currentThread().getName() + " " + Thread.currentThread().isDaemon()),
        e -> ran.add("failed " + e));
    thread.join(10_000);

    assertThat(ran).containsExactly("shepherd-test-warm-up true");
  }

  @Test
  void A3_what_a_warm_up_throws_is_reported_not_left_uncaught() throws InterruptedException {
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    Thread first = WarmUpThread.start("shepherd-test-warm-up", () -> {
      throw new IllegalStateException("no log to read");
    }, failures::add);
    Thread second = WarmUpThread.start("shepherd-test-warm-up", () -> {
      throw new AssertionError("invariant broken");
    }, failures::add);
    first.setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
    second.setUncaughtExceptionHandler((t, e) -> uncaught.add(e));
    first.join(10_000);
    second.join(10_000);

    assertThat(failures).extracting(Throwable::getMessage)
        .containsExactlyInAnyOrder("no log to read", "invariant broken");
    assertThat(uncaught).isEmpty();
  }
}
