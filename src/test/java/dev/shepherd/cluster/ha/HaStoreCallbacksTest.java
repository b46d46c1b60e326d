package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The store's writes are acknowledged on the thread that completes them (A3 in docs/rules.md): a
 * future that, as Hazelcast's do on a machine of two cores or fewer, runs every plain callback
 * on a thread of its own, starts none once the store has adapted it.
 */
class HaStoreCallbacksTest {
  /** Like Hazelcast's invocation futures there: {@code whenComplete} on a new thread each time. */
  private static final class ThreadPerCallback<T> extends CompletableFuture<T> {
    @Override
    public Executor defaultExecutor() {
      return task -> new Thread(task, "spawned").start();
    }

    @Override
    public CompletableFuture<T> whenComplete(BiConsumer<? super T, ? super Throwable> action) {
      return whenCompleteAsync(action, defaultExecutor());
    }
  }

  @Test
  void A3_a_writes_acknowledgement_runs_on_the_thread_that_completes_it() {
    ThreadPerCallback<Boolean> written = new ThreadPerCallback<>();
    AtomicReference<String> ranOn = new AtomicReference<>();
    CompletionStage<Boolean> adapted = HaStore.direct(written);
    adapted.whenComplete((ok, error) -> ranOn.set(Thread.currentThread().getName()));

    written.complete(true);

    assertThat(ranOn).hasValue(Thread.currentThread().getName());
    assertThat(adapted.toCompletableFuture().join()).isTrue();
  }

  @Test
  void A3_a_failed_write_fails_the_adapted_stage_with_its_cause() {
    ThreadPerCallback<Boolean> written = new ThreadPerCallback<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    HaStore.direct(written).whenComplete((ok, error) -> failure.set(error));

    IllegalStateException cause = new IllegalStateException("no majority");
    written.completeExceptionally(cause);

    assertThat(failure).hasValue(cause);
  }
}
