package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** P1 (configuration and topology) and P2 (slot creation). */
class ConfigurationTest {

  private static final PoolSettings BASE = PoolSettings.defaults("jobs", 2);

  @Test
  void A2_a_term_is_refused_beyond_what_an_assignment_token_carries() {
    long last = (1L << (63 - PoolSettings.TERM_SHIFT)) - 1;
    assertThat(BASE.withTerm(last).term()).isEqualTo(last);
    assertThatThrownBy(() -> BASE.withTerm(last + 1)).isInstanceOf(ConfigException.class)
        .hasMessage("term: must be between 0 and 2^23 - 1 (was " + (last + 1) + ")");
    assertThatThrownBy(() -> BASE.withTerm(-1)).isInstanceOf(ConfigException.class)
        .hasMessage("term: must be between 0 and 2^23 - 1 (was -1)");
  }

  @Nested
  class Topology {

    @Test
    void P1_pool_without_slots_is_refused_as_NO_WORKERS_naming_the_field() {
      assertThatThrownBy(() -> BASE.withSlots(List.of()))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("NO_WORKERS")
          .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("worker.instances"));
    }

    @Test
    void P1_repeated_slot_id_is_refused_as_DUPLICATE_WORKER_naming_the_id() {
      assertThatThrownBy(() -> BASE.withSlots(
              List.of(new SlotSpec("w-0", 1), new SlotSpec("w-1", 1), new SlotSpec("w-0", 2))))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("DUPLICATE_WORKER")
          .hasMessageContaining("\"w-0\"");
    }

    @Test
    void P1_backlog_capacity_zero_is_valid_and_negative_is_refused_naming_backlogCapacity() {
      assertThat(BASE.withBacklogCapacity(0).backlogCapacity()).isZero();
      assertThatThrownBy(() -> BASE.withBacklogCapacity(-1))
          .isInstanceOf(ConfigException.class)
          .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("backlogCapacity"))
          .hasMessageContaining("-1");
    }

    static Stream<Arguments> invalidFields() {
      return Stream.of(
          Arguments.of("maxAttempts", (Supplier<Object>) () ->
              BASE.withInterruption(InterruptionPolicy.RETRY, -1)),
          Arguments.of("jobTimeoutMs", (Supplier<Object>) () -> BASE.withJobTimeoutMs(-5)),
          Arguments.of("drainTimeoutMs", (Supplier<Object>) () -> BASE.withDrainTimeoutMs(-1)),
          Arguments.of("name", (Supplier<Object>) () -> new PoolSettings("", BASE.slots(), 1,
              InterruptionPolicy.RETRY, 3, 0, SupervisionSettings.defaults(),
              Selectors.rendezvous(), 0, 0)),
          Arguments.of("supervision.maxRestarts", (Supplier<Object>) () ->
              new SupervisionSettings(RestartPolicy.PERMANENT, Strategy.ONE_FOR_ONE, -1, 1000,
                  BudgetReaction.RETIRE_WORKER, null)),
          Arguments.of("supervision.restartWindowMs", (Supplier<Object>) () ->
              new SupervisionSettings(RestartPolicy.PERMANENT, Strategy.ONE_FOR_ONE, 1, 0,
                  BudgetReaction.RETIRE_WORKER, null)),
          Arguments.of("restartBackoff.multiplier", (Supplier<Object>) () ->
              new BackoffSettings(10, 100, 0.5, 0, 1000, 1)),
          Arguments.of("restartBackoff.jitter", (Supplier<Object>) () ->
              new BackoffSettings(10, 100, 2, 1.5, 1000, 1)),
          Arguments.of("restartBackoff.maxMs", (Supplier<Object>) () ->
              new BackoffSettings(10, 5, 2, 0, 1000, 1)),
          Arguments.of("worker id", (Supplier<Object>) () -> new SlotSpec("", 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidFields")
    void P1_invalid_setting_is_refused_with_a_message_naming_the_field(
        String field, Supplier<Object> build) {
      assertThatThrownBy(build::get)
          .isInstanceOf(ConfigException.class)
          .hasMessageStartingWith(field + ":")
          .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo(field));
    }

    @Test
    void P1_defaults_are_the_spec_defaults() {
      PoolSettings d = PoolSettings.defaults("jobs", 4);
      assertThat(d.slots()).extracting(SlotSpec::id).containsExactly("w-0", "w-1", "w-2", "w-3");
      assertThat(d.slots()).extracting(SlotSpec::maxConcurrency).containsOnly(1);
      assertThat(d.backlogCapacity()).isEqualTo(1000);
      assertThat(d.interruption()).isEqualTo(InterruptionPolicy.RETRY);
      assertThat(d.maxAttempts()).isEqualTo(3);
      assertThat(d.drainTimeoutMs()).isEqualTo(10_000);
      assertThat(d.supervision()).isEqualTo(new SupervisionSettings(RestartPolicy.PERMANENT,
          Strategy.ONE_FOR_ONE, 5, 10_000, BudgetReaction.RETIRE_WORKER, null));
    }
  }

  @Nested
  class Creation {

    @Test
    void P2_every_slot_starts_INSTALLING_and_start_deploys_first_incarnations() {
      Fixture fx = Fixture.pool(3).started();
      assertThat(fx.startEffects()).containsExactly(new Effect.Deploy("w-0", 1),
          new Effect.Deploy("w-1", 1), new Effect.Deploy("w-2", 1));
      assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::phase)
          .containsOnly(Phase.INSTALLING);
      assertThat(fx.snapshot().slots()).extracting(PoolSnapshot.SlotStatus::incarnation)
          .containsOnly(1);
    }

    @Test
    void P2_start_is_called_once() {
      Fixture fx = Fixture.pool(1).started();
      assertThatThrownBy(fx.pool::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void P2_installing_slot_takes_no_job() {
      Fixture fx = Fixture.pool(1).started();
      List<Effect> effects = fx.submit("j1");
      assertThat(Fixture.outcomes(effects)).containsExactly(new Outcome.Accepted("j1"));
      assertThat(Fixture.assigns(effects)).isEmpty();
      assertThat(fx.pool.backlogLength()).isEqualTo(1);
    }

    @Test
    void P2_successful_creation_makes_the_slot_dispatchable_and_dispatches_waiting_work() {
      Fixture fx = Fixture.pool(1).started();
      fx.submit("j1");
      List<Effect> effects = fx.at(5).created("w-0");
      assertThat(Fixture.notices(effects)).containsExactly(
          new Notice.PhaseChanged("w-0", Phase.IDLE, 1, null, null));
      assertThat(Fixture.placed(effects)).containsExactly("j1@w-0");
      assertThat(fx.pool.phase("w-0")).isEqualTo(Phase.ASSIGNED);
    }

    @Test
    void P2_failed_creation_retires_the_slot_CREATION_REJECTED() {
      Fixture fx = Fixture.pool(2).started();
      List<Effect> effects = fx.creationFailed("w-1");
      assertThat(Fixture.notices(effects)).containsExactly(new Notice.PhaseChanged(
          "w-1", Phase.RETIRED, 1, null, Retirement.CREATION_REJECTED));
      assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.RETIRED);
      assertThat(fx.slot("w-1").retirement()).isEqualTo(Retirement.CREATION_REJECTED);
      assertThat(Fixture.only(effects, Effect.Deploy.class)).as("no replacement").isEmpty();
    }

    @Test
    void P2_creation_fact_from_another_incarnation_is_refused_STALE_INCARNATION() {
      Fixture fx = Fixture.pool(1).started();
      assertThat(fx.refuse(new PoolEvent.WorkerCreated("w-0", 2, 0)))
          .isEqualTo(new PoolError.StaleIncarnation("w-0", 1, 2));
      assertThat(fx.refuse(new PoolEvent.CreationFailed("w-0", 0, "x", 0)))
          .isEqualTo(new PoolError.StaleIncarnation("w-0", 1, 0));
    }

    @Test
    void P2_creation_fact_for_an_unknown_slot_is_refused_UNKNOWN_WORKER() {
      Fixture fx = Fixture.pool(1).started();
      assertThat(fx.refuse(new PoolEvent.WorkerCreated("w-9", 1, 0)))
          .isEqualTo(new PoolError.UnknownWorker("w-9"));
      assertThat(fx.refuse(new PoolEvent.CreationFailed("w-9", 1, "x", 0)))
          .isEqualTo(new PoolError.UnknownWorker("w-9"));
    }
  }
}
