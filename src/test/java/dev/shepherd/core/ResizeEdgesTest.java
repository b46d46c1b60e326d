package dev.shepherd.core;

import static dev.shepherd.core.ResizeTest.PREFIX_OR_FIRST;
import static dev.shepherd.core.ResizeTest.ids;
import static dev.shepherd.core.ResizeTest.resize;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * F6 (docs/rules.md) at its edges: the id a grow would take, a resize to the size a drain is
 * heading for, jobs bound to a draining slot that its key, a retirement or a regrow sends
 * elsewhere, and a draining slot that stops while the pool drains.
 */
class ResizeEdgesTest {

  private static List<DurableRecord.Retargeted> moves(Fixture fx, String job) {
    return fx.records().stream().filter(DurableRecord.Retargeted.class::isInstance)
        .map(DurableRecord.Retargeted.class::cast).filter(r -> r.job().equals(job)).toList();
  }

  @Test
  void F6_a_grow_is_refused_only_when_an_id_it_adds_belongs_to_a_remote_worker() {
    Fixture fx = Fixture.pool(1).running();
    fx.register("w-2", 1);
    resize(fx, 2, 1);
    assertThat(ids(fx)).containsExactly("w-0", "w-2", "w-1");
    assertThat(fx.refuse(new PoolEvent.Resize(3, 1, fx.now())))
        .isInstanceOfSatisfying(PoolError.ResizeRefused.class,
            r -> assertThat(r.field()).isEqualTo("instances"));
  }

  @Test
  void F6_a_resize_to_the_size_a_drain_is_heading_for_drains_nothing_more() {
    Fixture fx = Fixture.pool(3).running();
    fx.submitAll("a", "b", "c");
    resize(fx, 1, 1);
    List<Effect> again = resize(fx, 1, 1);
    assertThat(Fixture.notices(again, Notice.Resized.class))
        .containsExactly(new Notice.Resized(1, 1, List.of(), List.of()));
    assertThat(Fixture.notices(again, Notice.PhaseChanged.class)).isEmpty();
    assertThat(fx.slot("w-1").phase()).isEqualTo(Phase.DRAINING);
  }

  @Test
  void F6_A3_a_slot_kept_again_takes_back_the_keyed_job_it_runs() {
    Fixture fx = Fixture.pool(2).durable().jobs(PoisonTest.AT_ONCE).selector(PREFIX_OR_FIRST)
        .running();
    fx.submit("a", "w-1/k");
    resize(fx, 1, 1);
    assertThat(moves(fx, "a")).containsExactly(new DurableRecord.Retargeted("a", "w-0"));
    resize(fx, 2, 1);
    assertThat(moves(fx, "a")).containsExactly(new DurableRecord.Retargeted("a", "w-0"),
        new DurableRecord.Retargeted("a", "w-1"));
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
    // Retried, it waits for its own slot again, not the one its key moved to.
    assertThat(Fixture.placed(fx.crash("w-1"))).isEmpty();
    assertThat(Fixture.placed(fx.created("w-1"))).containsExactly("a@w-1");
  }

  @Test
  void F6_J4_a_waiting_keyed_job_of_a_leaving_slot_moves_with_its_key() {
    Fixture fx = Fixture.pool(2).durable().jobs(RetryDelayTest.WAITING).selector(PREFIX_OR_FIRST)
        .running();
    fx.apply(new PoolEvent.Submit("d", Fixture.payload("d"), "w-1/k", Fixture.reply("d"), 0, 0,
        500, null, fx.now()));
    resize(fx, 1, 1);
    assertThat(ids(fx)).containsExactly("w-0");
    assertThat(moves(fx, "d")).containsExactly(new DurableRecord.Retargeted("d", "w-0"));
    assertThat(fx.open()).contains("d");
    assertThat(Fixture.placed(fx.tick(500))).containsExactly("d@w-0");
  }

  @Test
  void F6_P10_a_slot_that_retires_hands_back_the_keyed_job_a_draining_slot_runs_for_it() {
    Fixture fx = Fixture.pool(2).durable().policy(RestartPolicy.TEMPORARY)
        .selector(PREFIX_OR_FIRST).running();
    fx.submit("a", "w-1/k");
    resize(fx, 1, 1);
    assertThat(moves(fx, "a")).containsExactly(new DurableRecord.Retargeted("a", "w-0"));
    fx.crash("w-0");
    assertThat(fx.slot("w-0").phase()).isEqualTo(Phase.RETIRED);
    assertThat(moves(fx, "a")).containsExactly(new DurableRecord.Retargeted("a", "w-0"),
        new DurableRecord.Retargeted("a", "w-1"));
    assertThat(fx.storedImage()).isEqualTo(fx.pool.durableImage());
    fx.complete("a");
    assertThat(fx.terminal("a")).isInstanceOf(Outcome.Completed.class);
  }

  @Test
  void F6_P16_a_draining_slot_that_stops_while_the_pool_drains_answers_its_job_and_the_pool_stops() {
    Fixture fx = Fixture.pool(2).drain(1_000).running();
    fx.submitAll("a", "b");
    resize(fx, 1, 1);
    fx.stopRequested();
    fx.complete("a");
    assertThat(fx.pool.state()).isEqualTo(PoolState.DRAINING);
    fx.crash("w-1");
    assertThat(fx.interruptionOf("b")).isEqualTo(new Interruption.PoolStopped());
    assertThat(fx.pool.state()).isEqualTo(PoolState.STOPPED);
  }

  @Test
  void F6_P7_the_count_of_draining_slots_falls_back_to_zero_however_their_drains_end() {
    Fixture fx = Fixture.pool(4).running();
    fx.submitAll("a", "b", "c", "d");
    resize(fx, 1, 1);
    // While the count is above zero, every transition walks the local slots for drained ones.
    assertThat(fx.pool.data().local.draining).isEqualTo(3);
    resize(fx, 2, 1);
    assertThat(fx.pool.data().local.draining).as("w-1 is kept again").isEqualTo(2);
    fx.complete("c");
    assertThat(fx.pool.data().local.draining).as("w-2 ran its last job and left").isEqualTo(1);
    fx.deregister("w-3");
    assertThat(fx.pool.data().local.draining).as("w-3 left as a remote worker leaves").isZero();
    assertThat(ids(fx)).containsExactly("w-0", "w-1");
  }

  @Test
  void F6_A3_the_keys_of_a_leaving_slot_move_in_key_order() {
    Fixture fx = Fixture.pool(2).durable().selector(PREFIX_OR_FIRST).running();
    // Out of key order in a hash map: the moves must not follow it.
    fx.submit("x", "w-1/b");
    fx.submit("y", "w-1/a");
    resize(fx, 1, 1);
    assertThat(fx.records().stream().filter(DurableRecord.Bound.class::isInstance)
        .map(DurableRecord.Bound.class::cast).filter(b -> b.worker().equals("w-0")))
        .containsExactly(new DurableRecord.Bound("w-1/a", "w-0", false),
            new DurableRecord.Bound("w-1/b", "w-0", false));
  }
}
