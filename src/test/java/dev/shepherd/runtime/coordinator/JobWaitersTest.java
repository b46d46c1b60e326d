package dev.shepherd.runtime.coordinator;

import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.JobView;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.time.RuntimeTime;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link JobWaiters} on a context of its own (J6): bounded per job and in all, ended by the
 * job's terminal answer (not by its admission, and not by a rejection of a duplicate id), by
 * their time, or all at once; never left hanging.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JobWaitersTest {
  private final Map<String, JobView> views = new ConcurrentHashMap<>();
  private Context context;
  private JobWaiters waiters;

  @BeforeEach
  void make(Vertx vertx) {
    context = vertx.getOrCreateContext();
    waiters = new JobWaiters(RuntimeTime.system().scheduler(context), views::get);
  }

  /** {@code action}'s value, computed on the waiters' context. */
  private <T> T on(Supplier<T> action) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> done.complete(action.get()));
    return join(done.future());
  }

  private static JobView running(String job) {
    return new JobView(job, JobView.JobState.RUNNING, null, null, null, "w-0", 1, null, null,
        null);
  }

  @Test
  void J6_a_terminal_answer_ends_every_waiter_of_its_job_and_nothing_else_does() {
    views.put("j", running("j"));
    Future<Awaited> first = on(() -> waiters.await("j", 60_000));
    Future<Awaited> second = on(() -> waiters.await("j", 60_000));
    Future<Awaited> other = on(() -> waiters.await("k", 60_000));

    on(() -> {
      waiters.answered(new Outcome.Accepted("j"));
      waiters.answered(new Outcome.Rejected("j", RejectionReason.DUPLICATE_JOB, 1, "dup"));
      return null;
    });
    assertThat(on(waiters::size)).isEqualTo(3);
    Outcome done = new Outcome.Completed("j", 42, "w-0", 1);
    on(() -> {
      waiters.answered(done);
      return null;
    });

    assertThat(join(first)).isEqualTo(Awaited.answered(done));
    assertThat(join(second)).isEqualTo(Awaited.answered(done));
    assertThat(other.isComplete()).isFalse();
    assertThat(on(waiters::size)).isEqualTo(1);
  }

  @Test
  void J6_a_waiter_whose_time_is_up_gets_the_view_then() {
    views.put("j", running("j"));

    Awaited awaited = join(on(() -> waiters.await("j", 20)));

    assertThat(awaited).isEqualTo(Awaited.pending(running("j")));
    assertThat(on(waiters::size)).isZero();
  }

  @Test
  void J6_a_waiter_whose_job_was_forgotten_unanswered_still_ends() {
    Throwable failure = failure(on(() -> waiters.await("gone", 20)));

    assertThat(failure).isInstanceOfSatisfying(PoolErrorException.class, e -> {
      assertThat(e.name()).isEqualTo("UNKNOWN_JOB");
      assertThat(e.code()).isEqualTo(404);
    });
  }

  @Test
  void J6_waiters_are_bounded_per_job_and_in_all() {
    List<Future<Awaited>> held = new ArrayList<>();
    on(() -> {
      for (int i = 0; i < JobWaiters.MAX_PER_JOB; i++) {
        held.add(waiters.await("one", 60_000));
      }
      return null;
    });
    Throwable perJob = failure(on(() -> waiters.await("one", 60_000)));
    on(() -> {
      for (int i = JobWaiters.MAX_PER_JOB; i < JobWaiters.MAX_TOTAL; i++) {
        held.add(waiters.await("job-" + i, 60_000));
      }
      return null;
    });
    Throwable inAll = failure(on(() -> waiters.await("fresh", 60_000)));

    assertThat(perJob).isInstanceOfSatisfying(PoolErrorException.class, e -> {
      assertThat(e.name()).isEqualTo("TOO_MANY_WAITERS");
      assertThat(e.code()).isEqualTo(429);
      assertThat(e.getMessage()).contains("job 'one'", String.valueOf(JobWaiters.MAX_PER_JOB));
    });
    assertThat(inAll).hasMessageContaining(String.valueOf(JobWaiters.MAX_TOTAL));
    assertThat(on(waiters::size)).isEqualTo(JobWaiters.MAX_TOTAL);
    assertThat(held).noneMatch(Future::isComplete);
  }

  @Test
  void J6_every_waiter_ends_when_the_coordinator_stops_acting() {
    views.put("j", running("j"));
    Future<Awaited> known = on(() -> waiters.await("j", 60_000));
    Future<Awaited> unknown = on(() -> waiters.await("forgotten", 60_000));

    on(() -> {
      waiters.endAll();
      return null;
    });

    assertThat(join(known)).isEqualTo(Awaited.pending(running("j")));
    assertThat(failure(unknown)).isInstanceOf(PoolErrorException.class);
    assertThat(on(waiters::size)).isZero();
  }
}
