package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Seeded randomized property tests of the pure core (STYLE 8-9): each property runs {@code
 * shepherd.property.runs} sequences (default 1000) of 100-300 adversarial events over random
 * settings, and {@link PoolChecker} checks every step: the core's named invariants, every
 * accepted job answered exactly once, no rejected job answered again, no assignment beyond
 * capacity (C2), FIFO among jobs eligible for the same slot (P6), work conservation (C3),
 * in-flight = live assignments (C5), and that a refused event changes nothing. Each sequence ends
 * at rest with a stop and drain, after which nothing accepted may be unanswered (P16).
 *
 * <p>A failure names the seed; {@code -Dshepherd.seed=<n>} replays that one sequence.
 */
class PoolPropertiesTest {

  @Test
  void core_invariant_holds_over_mixed_adversarial_sequences() {
    check("mixed", PoolScenarios.MIXED);
  }

  @Test
  void P4_P5_keyed_admission_and_rebalance_keep_fifo_per_slot() {
    check("keyed", PoolScenarios.KEYED);
  }

  @Test
  void S1_S5_P13_P14_supervision_at_budget_edges_with_backoff_and_timeouts() {
    check("supervision", PoolScenarios.SUPERVISION);
  }

  @Test
  void C1_C5_registrations_capacity_announcements_and_departures() {
    check("capacity", PoolScenarios.CAPACITY);
  }

  @Test
  void P16_graceful_stop_mid_sequence_answers_everything_once() {
    check("shutdown", PoolScenarios.SHUTDOWN);
  }

  /** STYLE 7: the generator reaches every event, effect, error, outcome and interruption. */
  @Test
  void generator_exercises_every_event_effect_error_and_outcome_type() {
    Set<Class<?>> seen = new HashSet<>();
    Set<String> kinds = new HashSet<>();
    int runs = Long.getLong("shepherd.seed") != null ? 1 : Math.min(300, SequenceRunner.runs());
    for (PoolDriver.Profile profile : List.of(PoolScenarios.MIXED, PoolScenarios.SHUTDOWN)) {
      for (int i = 0; i < runs; i++) {
        long seed = SequenceRunner.seedOf("coverage-" + profile.name(), i);
        Recording recording = new Recording(seen, kinds);
        SequenceRunner.runSeed("coverage-" + profile.name(), profile,
            settings -> recording.around(new PoolChecker(settings)), seed);
      }
    }
    List<Class<?>> expected = new ArrayList<>();
    expected.addAll(List.of(PoolEvent.class.getPermittedSubclasses()));
    expected.addAll(List.of(Effect.class.getPermittedSubclasses()));
    expected.addAll(List.of(PoolError.class.getPermittedSubclasses()));
    expected.addAll(List.of(Outcome.class.getPermittedSubclasses()));
    expected.addAll(List.of(Interruption.class.getPermittedSubclasses()));
    expected.addAll(List.of(Notice.class.getPermittedSubclasses()));
    assertThat(seen).containsAll(expected);
    List<String> reasons = new ArrayList<>();
    for (RejectionReason reason : RejectionReason.values()) {
      reasons.add(reason.name());
    }
    assertThat(kinds).containsAll(reasons);
  }

  private static void check(String property, PoolDriver.Profile profile) {
    long started = System.nanoTime();
    SequenceRunner.Summary summary = SequenceRunner.check(property, profile, PoolChecker::new);
    System.out.printf("property %s: %d sequences, %d events, %d ms%n", property,
        summary.sequences(), summary.events(), (System.nanoTime() - started) / 1_000_000);
    assertThat(summary.sequences()).isGreaterThanOrEqualTo(
        Long.getLong("shepherd.seed") != null ? 1 : SequenceRunner.runs());
  }

  /** Records the types that pass through a checked pool. */
  private static final class Recording {
    final Set<Class<?>> seen;
    final Set<String> kinds;

    Recording(Set<Class<?>> seen, Set<String> kinds) {
      this.seen = seen;
      this.kinds = kinds;
    }

    SequenceRunner.Harness around(SequenceRunner.Harness inner) {
      return new SequenceRunner.Harness() {
        @Override
        public List<Effect> start() {
          return inner.start();
        }

        @Override
        public Transition apply(PoolEvent event) {
          Transition transition = inner.apply(event);
          seen.add(event.getClass());
          if (transition instanceof Transition.Refused refused) {
            seen.add(refused.error().getClass());
            return transition;
          }
          for (Effect effect : transition.effects()) {
            seen.add(effect.getClass());
            if (effect instanceof Effect.Respond respond) {
              seen.add(respond.outcome().getClass());
              if (respond.outcome() instanceof Outcome.Rejected rejected) {
                kinds.add(rejected.reason().name());
              } else if (respond.outcome() instanceof Outcome.Interrupted interrupted) {
                seen.add(interrupted.reason().getClass());
              }
            } else if (effect instanceof Effect.Publish publish) {
              seen.add(publish.notice().getClass());
            }
          }
          return transition;
        }

        @Override
        public void finish() {
          inner.finish();
        }
      };
    }
  }
}
