package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The store's log with several writes in flight (A3 in docs/rules.md): batches arriving in any
 * order are kept in order of term and id, a checkpoint replaces what is before it even when it
 * arrives after later batches, and a claim reads only the unbroken run after the checkpoint; a
 * term that took over goes on with the log its claim read.
 */
class HaEntryTest {
  /** {@link HaEntry#keep} with texts, kept as their UTF-8 bytes. */
  private static void keep(HaEntry entry, long term, long id, String text, String checkpoint) {
    entry.keep(term, id, bytes(text), bytes(checkpoint));
  }

  private static byte[] bytes(String text) {
    return text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static String text(byte[] utf8) {
    return utf8 == null ? null : new String(utf8, java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The log a claim reads, as texts. */
  private static java.util.List<String> log(HaEntry entry) {
    return entry.log().stream().map(HaEntryTest::text).toList();
  }


  private static HaEntry checkpointed(long term, long id) {
    HaEntry entry = new HaEntry();
    keep(entry, term, id, null, "base-" + term + "-" + id);
    return entry;
  }

  @Test
  void A3_batches_that_arrive_out_of_order_are_read_back_in_order() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 3, "c", null);
    keep(entry, 1, 2, "b", null);
    keep(entry, 1, 4, "d", null);
    assertThat(text(entry.base)).isEqualTo("base-1-1");
    assertThat(log(entry)).containsExactly("b", "c", "d");
  }

  @Test
  void A3_a_batch_after_a_gap_is_not_part_of_the_log() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    keep(entry, 1, 4, "d", null);
    assertThat(log(entry)).containsExactly("b");
  }

  @Test
  void A3_a_checkpoint_arriving_after_later_batches_keeps_them() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    keep(entry, 1, 4, "d", null);
    keep(entry, 1, 3, null, "base-1-3");
    assertThat(text(entry.base)).isEqualTo("base-1-3");
    assertThat(log(entry)).containsExactly("d");
  }

  @Test
  void A3_what_arrives_after_a_newer_checkpoint_is_covered_by_it() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 5, null, "base-1-5");
    keep(entry, 1, 3, "c", null);
    keep(entry, 1, 4, null, "base-1-4");
    keep(entry, 1, 6, "f", null);
    assertThat(text(entry.base)).isEqualTo("base-1-5");
    assertThat(log(entry)).containsExactly("f");
  }

  @Test
  void A3_a_new_terms_batches_count_only_after_its_own_first_checkpoint() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    keep(entry, 2, 2, "term-2-b", null);
    assertThat(log(entry)).as("term 2's first batch, its checkpoint, has not arrived")
        .containsExactly("b");
    keep(entry, 2, 1, null, "base-2-1");
    assertThat(text(entry.base)).isEqualTo("base-2-1");
    assertThat(log(entry)).containsExactly("term-2-b");
  }

  @Test
  void A3_a_new_term_goes_on_after_the_log_its_claim_read() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    keep(entry, 1, 4, "d", null);
    entry.claim("n2", 2);
    assertThat(entry.batches).as("the batch after the gap was never committed: dropped")
        .extracting(HaEntry.Stored::id).containsExactly(2L);
    keep(entry, 2, 2, "t2-b", null);
    keep(entry, 2, 1, "t2-a", null);
    assertThat(log(entry)).containsExactly("b", "t2-a", "t2-b");
    entry.claim("n3", 3);
    keep(entry, 3, 1, "t3-a", null);
    assertThat(text(entry.base)).isEqualTo("base-1-1");
    assertThat(log(entry)).containsExactly("b", "t2-a", "t2-b", "t3-a");
  }

  @Test
  void A3_a_later_terms_run_starts_at_its_batch_1() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    entry.claim("n2", 2);
    keep(entry, 2, 2, "t2-b", null);
    assertThat(log(entry)).as("term 2's batch 1 has not arrived").containsExactly("b");
    entry.claim("n3", 3);
    keep(entry, 3, 1, "t3-a", null);
    assertThat(log(entry)).as("term 2 committed nothing; term 3 follows term 1")
        .containsExactly("b", "t3-a");
  }

  @Test
  void A3_a_checkpoint_of_a_later_term_replaces_the_log_of_every_term_before_it() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    entry.claim("n2", 2);
    keep(entry, 2, 1, "t2-a", null);
    keep(entry, 2, 3, "t2-c", null);
    keep(entry, 2, 2, null, "base-2-2");
    assertThat(text(entry.base)).isEqualTo("base-2-2");
    assertThat(log(entry)).containsExactly("t2-c");
  }

  @Test
  void A3_a_follower_on_the_current_base_reads_the_batches_after_its_place() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    keep(entry, 1, 3, "c", null);
    keep(entry, 1, 5, "e", null);

    HaEntry.Read read = entry.read(new HaEntry.Position(1, 1, 1, 2), -1, -1, false);

    assertThat(read.whole()).isFalse();
    assertThat(read.base()).isNull();
    assertThat(read.batches()).extracting(b -> text(b.text())).as("the run only")
        .containsExactly("c");
    assertThat(entry.logAfter(new HaEntry.Position(1, 1, 1, 2))).extracting(HaEntryTest::text)
        .containsExactly("c");
  }

  @Test
  void A3_a_new_base_is_only_located_until_the_follower_asks_for_it_by_its_place() {
    HaEntry entry = checkpointed(1, 3);
    keep(entry, 1, 4, "d", null);

    HaEntry.Read located = entry.read(new HaEntry.Position(1, 1, 1, 2), -1, -1, false);
    assertThat(located.whole()).isFalse();
    assertThat(located.base()).isNull();
    assertThat(located.batches()).isEmpty();
    assertThat(located.baseId()).isEqualTo(3);

    HaEntry.Read whole = entry.read(null, 1, 3, false);
    assertThat(whole.whole()).isTrue();
    assertThat(text(whole.base())).isEqualTo("base-1-3");
    assertThat(whole.batches()).extracting(b -> text(b.text())).containsExactly("d");
    assertThat(entry.read(null, -1, -1, true).whole()).as("always").isTrue();
  }

  @Test
  void A3_a_batch_kept_twice_is_kept_once() {
    HaEntry entry = checkpointed(1, 1);
    keep(entry, 1, 2, "b", null);
    keep(entry, 1, 2, "b", null);
    assertThat(log(entry)).containsExactly("b");
    assertThat(entry.batches).hasSize(1);
  }
}
