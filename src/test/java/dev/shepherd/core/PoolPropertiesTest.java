package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

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
@Execution(ExecutionMode.CONCURRENT)
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
  void H2_H5_H8_hosts_register_get_lost_come_back_and_leave() {
    check("hosts", PoolScenarios.HOSTS);
  }

  @Test
  void A2_A3_durable_pools_taken_over_by_the_next_term_answer_every_job_once() {
    check("durable", PoolScenarios.DURABLE);
  }

  @Test
  void F1_F5_groups_priorities_rate_limits_and_pauses_keep_every_invariant() {
    check("flow", PoolScenarios.FLOW);
  }

  @Test
  void P16_graceful_stop_mid_sequence_answers_everything_once() {
    check("shutdown", PoolScenarios.SHUTDOWN);
  }

  /**
   * STYLE 7: the generator reaches every event, effect, error, outcome, interruption and notice
   * type, and the rare paths: every exit and rejection reason, both budget reactions, restarts of
   * several slots and delayed ones, redeploys, timeouts, sibling stops, interruptions in a drain.
   */
  @Test
  @Tag("generator-reach")
  void generator_exercises_every_event_effect_error_and_outcome_type() {
    Set<Class<?>> seen = new HashSet<>();
    Set<String> kinds = new HashSet<>();
    int runs = Long.getLong("shepherd.seed") != null ? 1 : Math.min(300, SequenceRunner.runs());
    for (PoolDriver.Profile profile :
        List.of(PoolScenarios.MIXED, PoolScenarios.SHUTDOWN, PoolScenarios.HOSTS,
            PoolScenarios.DURABLE, PoolScenarios.FLOW)) {
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
    expected.addAll(List.of(DurableRecord.class.getPermittedSubclasses()));
    assertThat(seen).containsAll(expected);
    List<String> paths = new ArrayList<>(List.of("restart:several-slots", "restart:delayed",
        "deploy:replacement", "interrupted:in-drain", "timeout-stop", "stop:sibling",
        "BACKLOG_FULL:bytes", "binding:forgotten", "retired:HOST_LOST", "host:back",
        "recovered:interrupted", "recovered:host-back"));
    for (RejectionReason reason : RejectionReason.values()) {
      paths.add(reason.name());
    }
    for (Exit exit : Exit.values()) {
      paths.add("interrupted-by:" + exit);
    }
    for (Phase phase : Phase.values()) {
      if (phase != Phase.ASSIGNED) { // IDLE/ASSIGNED churn is not a notice, by design
        paths.add("phase:" + phase);
      }
    }
    for (BudgetReaction reaction : BudgetReaction.values()) {
      paths.add("budget:" + reaction);
    }
    assertThat(kinds).containsAll(paths);
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

    /** Hosts seen registering in this sequence. */
    final Set<String> newHosts = new HashSet<>();
    /** Hosts a takeover brought back LOST. */
    final Set<String> recovered = new HashSet<>();

    Recording(Set<Class<?>> seen, Set<String> kinds) {
      this.seen = seen;
      this.kinds = kinds;
    }

    SequenceRunner.Harness around(PoolChecker inner) {
      return new SequenceRunner.Harness() {
        @Override
        public List<Effect> start() {
          return inner.start();
        }

        @Override
        public Transition apply(PoolEvent event) {
          PoolState before = inner.state();
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
                if (rejected.message().contains("payload bytes")) {
                  kinds.add("BACKLOG_FULL:bytes");
                }
              } else if (respond.outcome() instanceof Outcome.Interrupted interrupted) {
                seen.add(interrupted.reason().getClass());
                if (interrupted.reason() instanceof Interruption.WorkerStopped stopped) {
                  kinds.add("interrupted-by:" + stopped.exit());
                  if (before == PoolState.DRAINING) {
                    kinds.add("interrupted:in-drain");
                  }
                }
              }
            } else if (effect instanceof Effect.Publish publish) {
              record(publish.notice());
            } else if (effect instanceof Effect.Persist persist) {
              seen.add(persist.record().getClass());
            } else if (effect instanceof Effect.Deploy deploy && deploy.incarnation() > 1) {
              kinds.add("deploy:replacement");
            } else if (effect instanceof Effect.Stop stop) {
              if (stop.reason() == Exit.TIMEOUT && event instanceof PoolEvent.TimerFired) {
                kinds.add("timeout-stop");
              } else if (stop.reason() == Exit.SIBLING_RESTART
                  && !(event instanceof PoolEvent.WorkerStopped e
                      && e.exit() == Exit.SIBLING_RESTART)) {
                kinds.add("stop:sibling");
              }
            }
          }
          return transition;
        }

        private void record(Notice notice) {
          seen.add(notice.getClass());
          if (notice instanceof Notice.PhaseChanged change) {
            kinds.add("phase:" + change.phase());
            if (change.retirement() != null) {
              kinds.add("retired:" + change.retirement());
            }
          } else if (notice instanceof Notice.HostChanged host) {
            if (host.state() == HostState.UP && !newHosts.add(host.host())) {
              kinds.add("host:back");
              if (recovered.contains(host.host())) {
                kinds.add("recovered:host-back");
              }
            }
            if (host.state() == HostState.LOST && host.cause().contains("was replaced")) {
              recovered.add(host.host());
            }
          } else if (notice instanceof Notice.Recovered r) {
            if (r.interrupted() > 0) {
              kinds.add("recovered:interrupted");
            }
          } else if (notice instanceof Notice.BudgetExceeded exceeded) {
            kinds.add("budget:" + exceeded.reaction());
          } else if (notice instanceof Notice.RestartDecided decided) {
            if (decided.replaced().size() > 1) {
              kinds.add("restart:several-slots");
            }
            if (decided.delayMs() > 0) {
              kinds.add("restart:delayed");
            }
          }
        }

        @Override
        public void finish() {
          inner.finish();
          if (inner.forgotten() > 0) {
            kinds.add("binding:forgotten");
          }
        }
      };
    }
  }
}
