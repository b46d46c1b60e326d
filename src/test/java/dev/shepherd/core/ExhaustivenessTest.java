package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every sealed type is exercised: each event is handled by {@link Pool#apply} (no "unhandled"
 * AssertionError), and each effect, outcome, interruption, notice and error is produced by some
 * scenario below. A new subtype fails this test until a scenario shows it.
 */
class ExhaustivenessTest {

  private static Set<Class<?>> permitted(Class<?> sealed) {
    assertThat(sealed.isSealed()).as(sealed + " is sealed").isTrue();
    return new HashSet<>(Arrays.asList(sealed.getPermittedSubclasses()));
  }

  @Nested
  class Events {

    /** One event of each kind that applies to a running two-slot pool holding job "j1" on w-0. */
    private final Map<Class<?>, Function<Fixture, PoolEvent>> samples = new LinkedHashMap<>();

    {
      samples.put(PoolEvent.Submit.class, fx -> new PoolEvent.Submit("j2", "p", null, "r", 0, 0));
      samples.put(PoolEvent.Completed.class,
          fx -> new PoolEvent.Completed("w-0", fx.token("j1"), "ok", null, 0));
      samples.put(PoolEvent.Rebalance.class, fx -> new PoolEvent.Rebalance("k", "w-1", 0));
      samples.put(PoolEvent.Cancel.class, fx -> new PoolEvent.Cancel("j1", 0));
      samples.put(PoolEvent.WorkerCreated.class, fx -> new PoolEvent.WorkerCreated("w-1", 1, 0));
      samples.put(PoolEvent.CreationFailed.class,
          fx -> new PoolEvent.CreationFailed("w-1", 1, "no", 0));
      samples.put(PoolEvent.WorkerStopped.class,
          fx -> new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "boom", 0));
      samples.put(PoolEvent.WorkerRegistered.class,
          fx -> new PoolEvent.WorkerRegistered("r-1", 2, 0));
      samples.put(PoolEvent.CapacityAdvertised.class,
          fx -> new PoolEvent.CapacityAdvertised("w-0", 3, 0));
      samples.put(PoolEvent.WorkerDeregistered.class,
          fx -> new PoolEvent.WorkerDeregistered("w-0", 0));
      samples.put(PoolEvent.HostRegistered.class, fx -> new PoolEvent.HostRegistered("h1", "n1",
          List.of(new SlotSpec("h1/w-0", 1)), 0));
      samples.put(PoolEvent.HostLost.class, fx -> {
        fx.hostRegistered("h1", "n1", 1, 1);
        return new PoolEvent.HostLost("h1", "gone", 0);
      });
      samples.put(PoolEvent.HostHeard.class, fx -> {
        fx.hostRegistered("h1", "n1", 1, 1);
        return new PoolEvent.HostHeard("h1", 0);
      });
      samples.put(PoolEvent.HostDeregistered.class, fx -> {
        fx.hostRegistered("h1", "n1", 1, 1);
        return new PoolEvent.HostDeregistered("h1", 0);
      });
      samples.put(PoolEvent.TimerFired.class,
          fx -> new PoolEvent.TimerFired(new Timer.JobDeadline("w-0", fx.token("j1")), 1));
      samples.put(PoolEvent.Revive.class, fx -> {
        fx.creationFailed("w-1");
        return new PoolEvent.Revive("w-1", 1);
      });
      samples.put(PoolEvent.StopRequested.class, fx -> new PoolEvent.StopRequested(0));
      samples.put(PoolEvent.ReplayDead.class, fx -> {
        fx.failJob("j1", new JobError(500, "no"));
        return new PoolEvent.ReplayDead("j1", "r", 0);
      });
      samples.put(PoolEvent.DiscardDead.class, fx -> {
        fx.failJob("j1", new JobError(500, "no"));
        return new PoolEvent.DiscardDead("j1", 0);
      });
      samples.put(PoolEvent.Recover.class, fx -> new PoolEvent.Recover(DurableImage.empty(0), 0));
      samples.put(PoolEvent.SetGroup.class, fx -> new PoolEvent.SetGroup("g",
          new GroupSettings(1, 2, 3, new RateLimit(1, 10), true), 0));
      samples.put(PoolEvent.Pause.class, fx -> new PoolEvent.Pause(null, 0));
      samples.put(PoolEvent.Resume.class, fx -> new PoolEvent.Resume("g", 0));
      samples.put(PoolEvent.RateLimited.class,
          fx -> new PoolEvent.RateLimited("w-0", fx.token("j1"), 100, 0));
      samples.put(PoolEvent.Resize.class, fx -> new PoolEvent.Resize(1, 2, 0));
      samples.put(PoolEvent.Progress.class,
          fx -> new PoolEvent.Progress("w-0", fx.token("j1"), "half", 4, 0));
    }

    @Test
    void every_event_type_has_a_sample() {
      assertThat(samples.keySet()).containsExactlyInAnyOrderElementsOf(permitted(PoolEvent.class));
    }

    @Test
    void every_event_type_is_handled_by_apply() {
      for (Map.Entry<Class<?>, Function<Fixture, PoolEvent>> sample : samples.entrySet()) {
        if (sample.getKey() == PoolEvent.Recover.class) {
          // A recovery applies only to a fresh durable pool of a newer term (A3).
          Fixture fresh = Fixture.pool(2).durable().term(1).started();
          fresh.apply(sample.getValue().apply(fresh));
          continue;
        }
        Fixture fx = Fixture.pool(2).jobs(JobSettings.DEFAULT).started();
        fx.created("w-0");
        fx.submit("j1");
        PoolEvent event = sample.getValue().apply(fx);
        assertThat(event).isInstanceOf(sample.getKey());
        fx.apply(event);
      }
    }
  }

  @Nested
  class Products {

    private final List<Fixture> runs = new ArrayList<>();

    private Fixture run(Fixture.Builder builder) {
      Fixture fx = builder.started();
      runs.add(fx);
      return fx;
    }

    /** Accepted, Assign, Completed, Failed, Cancelled, Rejected; the plain error paths. */
    private void jobPaths() {
      Fixture fx = run(Fixture.pool(2).backlog(0));
      fx.created("w-0");
      fx.created("w-1");
      fx.submitAll("a", "b", "c");
      long a = fx.token("a");
      fx.complete("a");
      fx.failJob("b", new JobError(500, "bad"));
      fx.submit("d");
      fx.progress("d", "half");
      fx.cancel("d");
      fx.refuse(new PoolEvent.Completed("w-9", 1, "x", null, 0));
      fx.refuse(new PoolEvent.Completed("w-0", a, "x", null, 0));
      fx.refuse(new PoolEvent.Completed("w-1", a, "x", null, 0));
      fx.refuse(new PoolEvent.WorkerCreated("w-0", 1, 0));
      fx.refuse(new PoolEvent.WorkerCreated("w-0", 7, 0));
      fx.refuse(new PoolEvent.WorkerRegistered("w-0", 1, 0));
      fx.refuse(new PoolEvent.CapacityAdvertised("w-0", 0, 0));
    }

    /** FAIL interruption, retirement of a keyed slot, then of the last slot. */
    private void retirements() {
      Fixture fx = run(Fixture.pool(2).failPolicy().policy(RestartPolicy.TEMPORARY));
      fx.created("w-0");
      fx.created("w-1");
      fx.submit("a", "w-0/k");
      fx.submit("b", "w-0/k");
      fx.submit("c", "w-1/k");
      fx.submit("d", "w-1/k");
      fx.crash("w-0");
      fx.refuse(new PoolEvent.WorkerStopped("w-0", 1, Exit.CRASH, "x", 0));
      fx.refuse(new PoolEvent.Rebalance("k", "w-0", 0));
      fx.submit("e");
      fx.crash("w-1");
      fx.apply(new PoolEvent.Revive("w-0", 0));
      fx.refuse(new PoolEvent.Revive("w-0", 0));
    }

    /** A host registers, is refused twice, is lost, and is asked about while unknown. */
    private void hosts() {
      Fixture fx = run(Fixture.pool(1));
      fx.created("w-0");
      fx.hostUp("h1", 1, 1);
      fx.refuse(new PoolEvent.HostRegistered("h1", "other", List.of(new SlotSpec("h1/w-0", 1)),
          0));
      fx.refuse(new PoolEvent.HostRegistered("h2", "n2", List.of(new SlotSpec("w-0", 1)), 0));
      fx.refuse(new PoolEvent.HostLost("h9", "x", 0));
      fx.refuse(new PoolEvent.HostHeard("h9", 0));
      fx.hostLost("h1");
    }

    /** Replacement, backoff timers, attempts exhausted, budget refusal, pool stop. */
    private void supervision() {
      Fixture fx = run(Fixture.pool(2).retry(1).budget(1, 10_000)
          .backoff(new BackoffSettings(10, 100, 2, 0, 1000, 1)));
      fx.created("w-0");
      fx.created("w-1");
      fx.submitAll("a", "b", "q");
      fx.crash("w-0");
      fx.crash("w-1");
      fx.tick(1000);
      fx.stopRequested();
    }

    /** A durable pool records (a checkpoint too), is taken over, and a second recovery is refused. */
    private void recovery() {
      Fixture fx = run(Fixture.pool(1).durable().retry(3));
      fx.created("w-0");
      fx.hostUp("h1", 1, 1);
      fx.submitAll("a", "b");
      fx.submit("c", "w-0/k");
      fx.progress("b", "half");
      fx.complete("a");
      Fixture next = fx.takeOver();
      runs.add(next);
      next.refuse(new PoolEvent.Recover(DurableImage.empty(0), 0));
    }

    /** Section 10: poison, dead letters kept, evicted, replayed and discarded; outcomes forgotten. */
    private void jobRules() {
      Fixture fx = run(Fixture.pool(1).durable().jobs(PoisonTest.AT_ONCE
          .withDeadLetter(new Retention(1, 1_000), true)
          .withRecentOutcomes(new Retention(1, 1_000))));
      fx.created("w-0");
      DeadLetterTest.poison(fx, "bad");
      fx.submit("fails");
      fx.failJob("fails", new JobError(500, "no"));
      fx.replay("fails");
      fx.failJob("fails", new JobError(500, "no"));
      fx.discard("fails");
      fx.refuse(new PoolEvent.DiscardDead("fails", 0));
      fx.submitDelayed("later", 10);
      fx.tick(fx.now() + 10);
    }

    /** Section 11: group overrides, pauses and a rate-limited answer of a durable pool. */
    private void flow() {
      Fixture fx = run(Fixture.pool(1).durable());
      fx.created("w-0");
      fx.setGroup("g", new GroupSettings(1, null, null, null, null));
      fx.pause("g");
      fx.resume("g");
      fx.submitIn("a", "g", 5);
      fx.rateLimited("a", 0);
    }

    /** F6: a durable pool grows, drains a keyed slot, refuses a rebalance to it and a bad size. */
    private void resizes() {
      Fixture fx = run(Fixture.pool(2).durable().selector(ResizeTest.PREFIX_OR_FIRST));
      fx.created("w-0");
      fx.created("w-1");
      fx.submit("a", "w-1/k");
      fx.submit("b", "w-1/k");
      fx.apply(new PoolEvent.Resize(3, 1, 0));
      fx.apply(new PoolEvent.Resize(1, 1, 0));
      fx.refuse(new PoolEvent.Rebalance("k", "w-1", 0));
      fx.refuse(new PoolEvent.Resize(0, 1, 0));
      fx.complete("a");
    }

    private <T> Set<Class<?>> produced(Function<Fixture, List<T>> items) {
      Set<Class<?>> classes = new HashSet<>();
      for (Fixture fx : runs) {
        for (T item : items.apply(fx)) {
          classes.add(item.getClass());
        }
      }
      return classes;
    }

    private Set<Class<?>> producedInterruptions() {
      Set<Class<?>> classes = new HashSet<>();
      for (Fixture fx : runs) {
        for (Outcome outcome : Fixture.outcomes(fx.log())) {
          if (outcome instanceof Outcome.Interrupted interrupted) {
            classes.add(interrupted.reason().getClass());
          }
        }
      }
      return classes;
    }

    @Test
    void every_effect_outcome_interruption_notice_and_error_is_produced() {
      jobPaths();
      retirements();
      supervision();
      hosts();
      recovery();
      jobRules();
      flow();
      resizes();
      assertThat(produced(fx -> {
        List<Effect> all = new ArrayList<>(fx.startEffects());
        all.addAll(fx.log());
        return all;
      })).containsExactlyInAnyOrderElementsOf(permitted(Effect.class));
      assertThat(produced(fx -> Fixture.outcomes(fx.log())))
          .containsExactlyInAnyOrderElementsOf(permitted(Outcome.class));
      assertThat(producedInterruptions())
          .containsExactlyInAnyOrderElementsOf(permitted(Interruption.class));
      assertThat(produced(fx -> Fixture.notices(fx.log())))
          .containsExactlyInAnyOrderElementsOf(permitted(Notice.class));
      assertThat(produced(Fixture::refusals))
          .containsExactlyInAnyOrderElementsOf(permitted(PoolError.class));
      Set<Class<?>> records = produced(Fixture::records);
      assertThat(records).containsAll(permitted(DurableRecord.class).stream()
          .filter(type -> type != DurableRecord.Unbound.class).toList());
    }
  }
}
