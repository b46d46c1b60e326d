package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * P7 at scale, functionally: a million queued jobs, tens of thousands of keys and a thousand slots
 * must still dispatch FIFO and work-conserving. No timing is asserted here; the JMH benchmark
 * gives the figures.
 */
@Execution(ExecutionMode.CONCURRENT)
class DispatchScaleTest {

  private static final Object PAYLOAD = "p";
  private static final Object REPLY = "r";

  @Nested
  class LongBacklog {

    @Test
    void P7_a_million_queued_jobs_leave_in_fifo_order_each_as_soon_as_a_slot_frees() {
      int queued = 1_000_000;
      Fixture fx = Fixture.pool(2).backlog(queued).bulk().running();
      ArrayDeque<Effect.Assign> live = new ArrayDeque<>();
      for (int i = 0; i < queued + 2; i++) {
        live.addAll(Fixture.assigns(
            fx.apply(new PoolEvent.Submit("j" + i, PAYLOAD, null, REPLY, 0, 0))));
      }
      assertThat(live).extracting(Effect.Assign::job).containsExactly("j0", "j1");
      assertThat(fx.pool.backlogLength()).isEqualTo(queued);
      fx.checkInvariants();

      int next = 2;
      while (!live.isEmpty()) {
        Effect.Assign done = live.pollFirst();
        List<Effect> effects = fx.apply(
            new PoolEvent.Completed(done.worker(), done.assignment(), "ok", null, 1));
        Outcome answer = Fixture.outcomes(effects).get(0);
        assertThat(answer.job()).isEqualTo(done.job());
        List<Effect.Assign> assigned = Fixture.assigns(effects);
        if (next < queued + 2) {
          assertThat(assigned).hasSize(1);
          Effect.Assign a = assigned.get(0);
          if (!a.job().equals("j" + next) || !a.worker().equals(done.worker())) {
            throw new AssertionError("after " + done + " expected j" + next + " on "
                + done.worker() + ", got " + a);
          }
          live.addLast(a);
          next++;
        } else {
          assertThat(assigned).isEmpty();
        }
      }
      assertThat(fx.pool.backlogLength()).isZero();
      assertThat(fx.pool.unanswered()).isZero();
      assertThat(fx.counters().completed()).isEqualTo(queued + 2);
      fx.checkInvariants();
    }
  }

  @Nested
  class ManyKeysManySlots {

    /**
     * A reference model of P6 written the slow, obvious way: untargeted jobs in one FIFO, keyed
     * jobs in one FIFO per bound slot, each free slot takes the earlier of the two heads.
     */
    private final ArrayDeque<Integer> untargeted = new ArrayDeque<>();
    private final Map<String, ArrayDeque<Integer>> targeted = new HashMap<>();
    private final BitSet free = new BitSet();

    private Integer expectedFor(int slot) {
      ArrayDeque<Integer> own = targeted.getOrDefault("w-" + slot, new ArrayDeque<>());
      Integer shared = untargeted.peekFirst();
      Integer mine = own.peekFirst();
      if (mine == null || (shared != null && shared < mine)) {
        return shared == null ? null : untargeted.pollFirst();
      }
      return own.pollFirst();
    }

    @Test
    void P7_fifty_thousand_keys_over_a_thousand_slots_dispatch_like_the_reference_model() {
      int slots = 1000;
      int jobs = 200_000;
      SplittableRandom random = new SplittableRandom(7);
      Fixture fx = Fixture.pool(slots).backlog(jobs).selector(Selectors.rendezvous())
          .bulk().running();
      free.set(0, slots);
      Map<String, String> jobOn = new HashMap<>();
      Map<String, Long> tokenOn = new HashMap<>();
      List<String> busy = new ArrayList<>();

      for (int i = 0; i < jobs; i++) {
        String key = i % 2 == 0 ? "key-" + random.nextInt(50_000) : null;
        List<Effect> effects =
            fx.apply(new PoolEvent.Submit("j" + i, PAYLOAD, key, REPLY, 0, 0));
        String target = key == null ? null : fx.pool.binding(key);
        Integer slotIndex;
        if (target == null) {
          slotIndex = free.isEmpty() ? null : free.nextSetBit(0);
          if (slotIndex == null) {
            untargeted.addLast(i);
          }
        } else {
          int t = Integer.parseInt(target.substring(2));
          slotIndex = free.get(t) ? t : null;
          if (slotIndex == null) {
            targeted.computeIfAbsent(target, k -> new ArrayDeque<>()).addLast(i);
          }
        }
        List<Effect.Assign> assigned = Fixture.assigns(effects);
        if (slotIndex == null) {
          assertThat(assigned).isEmpty();
        } else {
          expectAssigned(assigned, "w-" + slotIndex, "j" + i);
          free.clear(slotIndex);
          busy.add("w-" + slotIndex);
          jobOn.put("w-" + slotIndex, "j" + i);
          tokenOn.put("w-" + slotIndex, assigned.get(0).assignment());
        }
      }
      assertThat(busy).hasSize(slots);
      assertThat(targeted.keySet()).as("keys spread over the slots").hasSizeGreaterThan(900);
      fx.checkInvariants();

      while (!busy.isEmpty()) {
        int pick = random.nextInt(busy.size());
        String worker = busy.get(pick);
        List<Effect> effects = fx.apply(
            new PoolEvent.Completed(worker, tokenOn.get(worker), "ok", null, 1));
        assertThat(Fixture.outcomes(effects).get(0).job()).isEqualTo(jobOn.get(worker));
        Integer expected = expectedFor(Integer.parseInt(worker.substring(2)));
        List<Effect.Assign> assigned = Fixture.assigns(effects);
        if (expected == null) {
          assertThat(assigned).isEmpty();
          busy.set(pick, busy.get(busy.size() - 1));
          busy.remove(busy.size() - 1);
        } else {
          expectAssigned(assigned, worker, "j" + expected);
          jobOn.put(worker, "j" + expected);
          tokenOn.put(worker, assigned.get(0).assignment());
        }
      }
      assertThat(fx.pool.unanswered()).isZero();
      assertThat(fx.counters().completed()).isEqualTo(jobs);
      fx.checkInvariants();
    }

    private void expectAssigned(List<Effect.Assign> assigned, String worker, String job) {
      if (assigned.size() != 1 || !assigned.get(0).worker().equals(worker)
          || !assigned.get(0).job().equals(job)) {
        throw new AssertionError("expected " + job + "@" + worker + ", got " + assigned);
      }
    }
  }
}
