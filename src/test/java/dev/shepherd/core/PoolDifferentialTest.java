package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Differential test: the core {@link Pool} against the deliberately simple {@link ReferencePool}
 * over {@code shepherd.property.runs} random sequences per profile (default 1000). At every step
 * both must return equal {@link Transition}s (the same effects in the same order, the same
 * errors; payloads, results and replyTo are strings, so records compare by equals) and equal
 * {@link PoolSnapshot}s. A divergence is shrunk and reported with its seed ({@code
 * -Dshepherd.seed=<n>} replays it).
 */
@Execution(ExecutionMode.CONCURRENT)
class PoolDifferentialTest {

  @Test
  void core_matches_the_reference_model_over_mixed_sequences() {
    check("differential-mixed", PoolScenarios.MIXED);
  }

  @Test
  void core_matches_the_reference_model_over_keyed_sequences() {
    check("differential-keyed", PoolScenarios.KEYED);
  }

  @Test
  void core_matches_the_reference_model_over_supervision_and_capacity_sequences() {
    check("differential-supervision", PoolScenarios.SUPERVISION);
    check("differential-capacity", PoolScenarios.CAPACITY);
  }

  @Test
  void core_matches_the_reference_model_with_worker_hosts() {
    check("differential-hosts", PoolScenarios.HOSTS);
  }

  @Test
  void A3_core_matches_the_reference_model_across_failovers_of_durable_pools() {
    check("differential-durable", PoolScenarios.DURABLE);
  }

  @Test
  void core_matches_the_reference_model_through_graceful_stops() {
    check("differential-shutdown", PoolScenarios.SHUTDOWN);
  }

  @Test
  void F1_F5_core_matches_the_reference_model_with_groups_priorities_limits_and_pauses() {
    check("differential-flow", PoolScenarios.FLOW);
  }

  private static void check(String property, PoolDriver.Profile profile) {
    long started = System.nanoTime();
    SequenceRunner.Summary summary = SequenceRunner.check(property, profile, Twins::new);
    System.out.printf("property %s: %d sequences, %d events, %d ms%n", property,
        summary.sequences(), summary.events(), (System.nanoTime() - started) / 1_000_000);
    assertThat(summary.sequences()).isGreaterThanOrEqualTo(
        Long.getLong("shepherd.seed") != null ? 1 : SequenceRunner.runs());
  }

  /** The core and the model side by side; every step must agree. */
  private static final class Twins implements SequenceRunner.Harness {
    private Pool core;
    private ReferencePool model;

    Twins(PoolSettings settings) {
      this.core = Pool.create(settings);
      this.model = new ReferencePool(settings);
    }

    @Override
    public List<Effect> start() {
      List<Effect> deploys = core.start();
      List<Effect> expected = model.start();
      if (!deploys.equals(expected)) {
        throw new AssertionError("start differs: core " + deploys + ", model " + expected);
      }
      return deploys;
    }

    @Override
    public Transition apply(PoolEvent event) {
      List<Effect> started = List.of();
      if (PoolDriver.isFailover(event, core.settings().term())) {
        // T3: the store keeps the totals of the last write, here those of the pool replaced.
        PoolEvent.Recover recover = (PoolEvent.Recover) event;
        event = new PoolEvent.Recover(recover.image(), core.counters(), recover.now());
        PoolSettings next = PoolScenarios.successor(core.settings());
        core = Pool.create(next);
        model = new ReferencePool(next);
        started = start();
      }
      Transition actual = core.apply(event);
      Transition expected = model.apply(event);
      if (!actual.equals(expected)) {
        throw new AssertionError("transitions differ on " + event.getClass().getSimpleName()
            + ": " + event + "\n  core:  " + lines(actual) + "\n  model: " + lines(expected));
      }
      PoolSnapshot coreStatus = core.snapshot(event.now());
      PoolSnapshot modelStatus = model.snapshot(event.now());
      if (!coreStatus.equals(modelStatus)) {
        throw new AssertionError("snapshots differ after " + event.getClass().getSimpleName()
            + ": " + event + "\n  core:  " + coreStatus + "\n  model: " + modelStatus);
      }
      if (!started.isEmpty() && actual instanceof Transition.Applied applied) {
        List<Effect> all = new java.util.ArrayList<>(started);
        all.addAll(applied.effects());
        return new Transition.Applied(all, applied.verdict());
      }
      return actual;
    }

    @Override
    public void finish() {
      if (core.state() != PoolState.STOPPED || core.unanswered() != 0) {
        throw new AssertionError("P16 the pool stops with nothing unanswered: " + core.state()
            + ", " + core.unanswered() + " held");
      }
    }

    private static String lines(Transition transition) {
      if (transition instanceof Transition.Applied applied) {
        StringBuilder out = new StringBuilder("Applied");
        applied.effects().forEach(effect -> out.append("\n    ").append(effect));
        return out.toString();
      }
      return transition.toString();
    }
  }
}
