package dev.shepherd.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A write's texts travel as UTF-8 bytes and are kept as the text they were (A3 in docs/rules.md).
 */
class HaStoreWriteTest {

  private static String text(byte[] utf8) {
    return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
  }

  /** The log a claim reads, as texts. */
  private static java.util.List<String> log(HaEntry entry) {
    return entry.log().stream().map(HaStoreWriteTest::text).toList();
  }

  private static HaEntry entryOfTerm(long term) {
    HaEntry entry = new HaEntry();
    entry.term = term;
    entry.leader = "n1";
    return entry;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void A3_a_batch_sent_as_bytes_is_kept_as_its_text_even_beyond_ascii() {
    HaEntry entry = entryOfTerm(3);
    Map.Entry<String, HaEntry> held = new AbstractMap.SimpleEntry<>("jobs", entry);
    String first = "{\"records\":[{\"job\":\"caf\u00e9-\u4e2d-\ud83d\ude00\"}]}";
    String second = "x".repeat(100_000);

    assertThat(new HaStore.Write(3, 1, null, utf8("{}")).process(held)).isTrue();
    assertThat(new HaStore.Write(3, 2, utf8(first), null).process(held)).isTrue();
    assertThat(new HaStore.Write(3, 3, utf8(second), null).process(held)).isTrue();

    assertThat(log(entry)).containsExactly(first, second);
    assertThat(entry.writtenBy).isEqualTo(3);
  }

  @Test
  void A3_a_checkpoint_sent_as_bytes_replaces_the_base() {
    HaEntry entry = entryOfTerm(2);
    Map.Entry<String, HaEntry> held = new AbstractMap.SimpleEntry<>("jobs", entry);

    assertThat(new HaStore.Write(2, 1, utf8("b1"), null).process(held)).isTrue();
    assertThat(new HaStore.Write(2, 2, null, utf8("{\"image\":\"\u00fc\"}")).process(held))
        .isTrue();

    assertThat(text(entry.base)).isEqualTo("{\"image\":\"\u00fc\"}");
    assertThat(log(entry)).isEmpty();
  }

  @Test
  void A3_a_write_of_another_term_is_refused_and_changes_nothing() {
    HaEntry entry = entryOfTerm(5);
    Map.Entry<String, HaEntry> held = new AbstractMap.SimpleEntry<>("jobs", entry);

    assertThat(new HaStore.Write(4, 1, utf8("late"), null).process(held)).isFalse();
    assertThat(new HaStore.Write(4, 1, utf8("late"), null)
        .process(new AbstractMap.SimpleEntry<>("jobs", null))).isFalse();

    assertThat(log(entry)).isEmpty();
    assertThat(entry.writtenBy).isZero();
  }

  @Test
  void A3_a_write_crosses_the_cluster_as_a_data_serializable_and_arrives_whole() {
    SerializationService serialization = new DefaultSerializationServiceBuilder().build();
    String batch = "{\"records\":[{\"job\":\"caf\u00e9\"}]}";

    Data data = serialization.toData(new HaStore.Write(7, 3, utf8(batch), null));
    HaStore.Write read = serialization.toObject(data);
    HaEntry entry = entryOfTerm(7);
    entry.keep(7, 2, null, utf8("{}"));

    assertThat(data.getType()).isEqualTo(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE);
    assertThat(read.process(new AbstractMap.SimpleEntry<>("jobs", entry))).isTrue();
    assertThat(log(entry)).containsExactly(batch);
    assertThat(entry.writtenBy).isEqualTo(7);

    HaStore.Write checkpoint = serialization.toObject(
        serialization.toData(new HaStore.Write(7, 4, null, utf8("{\"image\":1}"))));
    assertThat(checkpoint.process(new AbstractMap.SimpleEntry<>("jobs", entry))).isTrue();
    assertThat(text(entry.base)).isEqualTo("{\"image\":1}");
    assertThat(log(entry)).isEmpty();
  }
}
