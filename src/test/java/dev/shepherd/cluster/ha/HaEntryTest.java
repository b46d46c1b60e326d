package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The store's log with several writes in flight (A3 in docs/rules.md): batches arriving in any
 * order are kept in order of term and id, a checkpoint replaces what is before it even when it
 * arrives after later batches, and a claim reads only the unbroken run after the checkpoint.
 */
class HaEntryTest {

  private static HaEntry checkpointed(long term, long id) {
    HaEntry entry = new HaEntry();
    entry.keep(term, id, null, "base-" + term + "-" + id);
    return entry;
  }

  @Test
  void A3_batches_that_arrive_out_of_order_are_read_back_in_order() {
    HaEntry entry = checkpointed(1, 1);
    entry.keep(1, 3, "c", null);
    entry.keep(1, 2, "b", null);
    entry.keep(1, 4, "d", null);
    assertThat(entry.base).isEqualTo("base-1-1");
    assertThat(entry.log()).containsExactly("b", "c", "d");
  }

  @Test
  void A3_a_batch_after_a_gap_is_not_part_of_the_log() {
    HaEntry entry = checkpointed(1, 1);
    entry.keep(1, 2, "b", null);
    entry.keep(1, 4, "d", null);
    assertThat(entry.log()).containsExactly("b");
  }

  @Test
  void A3_a_checkpoint_arriving_after_later_batches_keeps_them() {
    HaEntry entry = checkpointed(1, 1);
    entry.keep(1, 2, "b", null);
    entry.keep(1, 4, "d", null);
    entry.keep(1, 3, null, "base-1-3");
    assertThat(entry.base).isEqualTo("base-1-3");
    assertThat(entry.log()).containsExactly("d");
  }

  @Test
  void A3_what_arrives_after_a_newer_checkpoint_is_covered_by_it() {
    HaEntry entry = checkpointed(1, 1);
    entry.keep(1, 5, null, "base-1-5");
    entry.keep(1, 3, "c", null);
    entry.keep(1, 4, null, "base-1-4");
    entry.keep(1, 6, "f", null);
    assertThat(entry.base).isEqualTo("base-1-5");
    assertThat(entry.log()).containsExactly("f");
  }

  @Test
  void A3_a_new_terms_batches_count_only_after_its_own_first_checkpoint() {
    HaEntry entry = checkpointed(1, 1);
    entry.keep(1, 2, "b", null);
    entry.keep(2, 2, "term-2-b", null);
    assertThat(entry.log()).as("term 2's first batch, its checkpoint, has not arrived")
        .containsExactly("b");
    entry.keep(2, 1, null, "base-2-1");
    assertThat(entry.base).isEqualTo("base-2-1");
    assertThat(entry.log()).containsExactly("term-2-b");
  }

  @Test
  void A3_a_batch_kept_twice_is_kept_once() {
    HaEntry entry = checkpointed(1, 1);
    entry.keep(1, 2, "b", null);
    entry.keep(1, 2, "b", null);
    assertThat(entry.log()).containsExactly("b");
    assertThat(entry.batches).hasSize(1);
  }
}
