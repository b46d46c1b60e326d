package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.cluster.trust.ClusterKeys;
import java.util.Base64;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * HA records sealed with the cluster key (docs/security.md, A3 in docs/rules.md): what a member
 * reads in the map is ciphertext; what a member forged, altered or moved does not open; the
 * previous key still reads; and a reading of the log leaves out, in order, what it refuses.
 */
class SealedRecordsTest {
  private static final String TEXT = "{\"id\":3,\"records\":[{\"payload\":\"secret-payload\"}]}";

  private static ClusterKeys keys(long seed, Long previous) {
    return ClusterKeys.fromEnvironment(previous == null ? Map.of(ClusterKeys.KEY, key(seed))
        : Map.of(ClusterKeys.KEY, key(seed), ClusterKeys.PREVIOUS, key(previous)));
  }

  private static String key(long seed) {
    byte[] bytes = new byte[32];
    new SplittableRandom(seed).nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static SealedRecords sealed(String pool, long seed) {
    return new SealedRecords(pool, keys(seed, null));
  }

  @Test
  void a_sealed_record_is_ciphertext_that_opens_to_its_text() throws Exception {
    SealedRecords records = sealed("jobs", 1);

    String record = records.seal(SealedRecords.BATCH, 4, 3, TEXT);

    assertThat(record).startsWith("sealed1:batch:4:3:").doesNotContain("secret");
    assertThat(records.open(SealedRecords.BATCH, record)).isEqualTo(TEXT);
    assertThat(records.seal(SealedRecords.BATCH, 4, 3, TEXT)).as("a fresh nonce each time")
        .isNotEqualTo(record);
  }

  @Test
  void without_a_key_records_stay_in_clear() throws Exception {
    SealedRecords clear = new SealedRecords("jobs", ClusterKeys.NONE);

    assertThat(clear.sealing()).isFalse();
    assertThat(clear.seal(SealedRecords.BASE, 1, 1, TEXT)).isEqualTo(TEXT);
    assertThat(clear.open(SealedRecords.BASE, TEXT)).isEqualTo(TEXT);
  }

  @Test
  void a_record_moved_to_another_pool_term_sequence_or_kind_does_not_open() {
    SealedRecords jobs = sealed("jobs", 1);
    String record = jobs.seal(SealedRecords.BATCH, 4, 3, TEXT);
    String[] moved = {
        record.replace(":4:3:", ":5:3:"), record.replace(":4:3:", ":4:2:"),
        record.replace("sealed1:batch:", "sealed1:base:")};
    for (String forged : moved) {
      assertThatThrownBy(() -> jobs.open(forged.startsWith("sealed1:base") ? SealedRecords.BASE
          : SealedRecords.BATCH, forged)).as(forged).isInstanceOf(SealedRecords.Refused.class);
    }
    assertThatThrownBy(() -> sealed("other", 1).open(SealedRecords.BATCH, record))
        .isInstanceOf(SealedRecords.Refused.class);
    assertThatThrownBy(() -> jobs.open(SealedRecords.BASE, record))
        .isInstanceOf(SealedRecords.Refused.class).hasMessageContaining("where a base belongs");
  }

  @Test
  void every_altered_byte_is_refused() {
    SealedRecords jobs = sealed("jobs", 1);
    String record = jobs.seal(SealedRecords.BATCH, 4, 3, TEXT);
    int start = record.lastIndexOf(':') + 1;
    byte[] body = Base64.getDecoder().decode(record.substring(start));
    for (int i = 0; i < body.length; i++) {
      byte[] altered = body.clone();
      altered[i] ^= 1;
      String forged = record.substring(0, start) + Base64.getEncoder().encodeToString(altered);
      assertThatThrownBy(() -> jobs.open(SealedRecords.BATCH, forged)).as("byte " + i)
          .isInstanceOf(SealedRecords.Refused.class);
    }
  }

  @Test
  void malformed_and_unsealed_records_are_refused_when_a_key_is_set() {
    SealedRecords jobs = sealed("jobs", 1);
    String[] malformed = {
        TEXT, "", "sealed1:", "sealed1:batch", "sealed1:batch:4:3", "sealed1:batch:x:3:AAAA",
        "sealed1:batch:4:-1:AAAA", "sealed1:batch:4:3:not base64!", "sealed1:batch:4:3:AAAA",
        "sealed1:batch:4:3:" + Base64.getEncoder().encodeToString(new byte[27]),
        "sealed1:batch:4:3:" + Base64.getEncoder().encodeToString(new byte[64]),
        "sealed1:batch:99999999999999999999:3:AAAA"};
    for (String record : malformed) {
      assertThatThrownBy(() -> jobs.open(SealedRecords.BATCH, record)).as(record)
          .isInstanceOf(SealedRecords.Refused.class);
    }
  }

  @Test
  void another_key_cannot_open_and_a_node_without_a_key_says_so() {
    String record = sealed("jobs", 1).seal(SealedRecords.BATCH, 4, 3, TEXT);

    assertThatThrownBy(() -> sealed("jobs", 2).open(SealedRecords.BATCH, record))
        .isInstanceOf(SealedRecords.Refused.class).hasMessageContaining("does not authenticate");
    assertThatThrownBy(() -> new SealedRecords("jobs", ClusterKeys.NONE)
        .open(SealedRecords.BATCH, record))
        .isInstanceOf(SealedRecords.Refused.class).hasMessageContaining(ClusterKeys.KEY);
  }

  @Test
  void after_a_rotation_the_previous_key_still_reads_and_the_new_one_writes() throws Exception {
    String old = sealed("jobs", 1).seal(SealedRecords.BATCH, 4, 3, TEXT);
    SealedRecords rotated = new SealedRecords("jobs", keys(2, 1L));

    assertThat(rotated.open(SealedRecords.BATCH, old)).isEqualTo(TEXT);
    String fresh = rotated.seal(SealedRecords.BATCH, 5, 1, TEXT);
    assertThat(sealed("jobs", 2).open(SealedRecords.BATCH, fresh)).isEqualTo(TEXT);
    assertThatThrownBy(() -> sealed("jobs", 1).open(SealedRecords.BATCH, fresh))
        .isInstanceOf(SealedRecords.Refused.class);
  }

  @Test
  void a_reading_leaves_out_forged_records_and_genuine_ones_replayed_out_of_place() {
    SealedRecords jobs = sealed("jobs", 1);
    String base = jobs.seal(SealedRecords.BASE, 2, 5, "base");
    String first = jobs.seal(SealedRecords.BATCH, 2, 6, "one");
    String second = jobs.seal(SealedRecords.BATCH, 3, 1, "two");
    SealedRecords.Reader log = jobs.reader();

    assertThat(log.next(SealedRecords.BASE, base)).isEqualTo("base");
    assertThat(log.next(SealedRecords.BATCH, "{\"forged\":true}")).isNull();
    assertThat(log.next(SealedRecords.BATCH, first)).isEqualTo("one");
    assertThat(log.next(SealedRecords.BATCH, first)).as("the same record again").isNull();
    assertThat(log.next(SealedRecords.BATCH, second)).isEqualTo("two");
    assertThat(log.next(SealedRecords.BATCH, first)).as("an older one after it").isNull();
    assertThat(log.next(SealedRecords.BATCH, sealed("jobs", 9).seal(SealedRecords.BATCH, 3, 2,
        "forged with another key"))).isNull();
  }
}
