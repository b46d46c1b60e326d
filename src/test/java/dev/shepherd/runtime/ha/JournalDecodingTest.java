package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.json.DecodeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A3 and T1 (docs/rules.md): a journal decoded on two threads at a takeover reads back exactly as
 * on one, its batches in order, and a job's trace written twice is the later one.
 */
class JournalDecodingTest {
  private static final ExecutorService OTHER = Executors.newSingleThreadExecutor();

  @AfterAll
  static void stop() {
    OTHER.shutdownNow();
  }

  private static DurableRecord.Accepted accepted(String job, long order) {
    byte[] payload = ("{\"n\":" + order + ",\"pad\":\"" + "x".repeat(200) + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    return new DurableRecord.Accepted(job, 0, order, new RawJson(payload), null, "r", 0,
        payload.length, null);
  }

  /** A log large enough to be split: {@code batches} batches of 100 jobs accepted. */
  private static List<String> texts(int batches, Map<String, JournalTrace> traced) {
    List<String> texts = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      List<DurableRecord> records = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        records.add(accepted("j-" + b + "-" + i, b * 100L + i));
      }
      texts.add(DurableJson.encode(new DurableGate.Batch(b + 1, records, List.of(), false,
          List.of()), traced));
    }
    return texts;
  }

  @Test
  void A3_a_log_decoded_on_two_threads_reads_back_as_on_one() {
    DurableLog.Base base = new DurableLog.Base(DurableImage.empty(3), List.of());
    String baseText = DurableJson.encode(base);
    List<String> texts = texts(40, Map.of());
    assertThat(texts.stream().mapToLong(String::length).sum())
        .isGreaterThan(JournalDecoding.SPLIT_FROM);

    JournalDecoding.Decoded decoded = JournalDecoding.decode(baseText, texts, 3, new HashMap<>(),
        OTHER);

    assertThat(decoded.base()).isEqualTo(DurableJson.decodeBase(baseText));
    assertThat(decoded.batches()).extracting(DurableGate.Batch::id)
        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 40).boxed()
            .toList());
    assertThat(decoded.batches())
        .containsExactlyElementsOf(texts.stream().map(DurableJson::decodeBatch).toList());
  }

  @Test
  void A3_without_a_base_the_log_starts_from_the_empty_image_of_the_term_that_wrote_last() {
    JournalDecoding.Decoded decoded = JournalDecoding.decode(null, List.of(), 7, new HashMap<>(),
        OTHER);
    assertThat(decoded.base()).isEqualTo(DurableLog.Base.empty(7));
    assertThat(decoded.batches()).isEmpty();
  }

  @Test
  void T1_a_job_traced_in_both_halves_keeps_the_later_trace() {
    JournalTrace early = new JournalTrace(
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null);
    JournalTrace late = new JournalTrace(
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", null);
    List<String> texts = new ArrayList<>(texts(40, Map.of()));
    // The same job id accepted in the first batch and, answered and used again, in the last.
    texts.set(0, DurableJson.encode(new DurableGate.Batch(1, List.of(accepted("again", 0)),
        List.of(), false, List.of()), Map.of("again", early)));
    texts.add(DurableJson.encode(new DurableGate.Batch(41, List.of(accepted("again", 9_999)),
        List.of(), false, List.of()), Map.of("again", late)));

    Map<String, JournalTrace> traces = new HashMap<>();
    JournalDecoding.decode(null, texts, 1, traces, OTHER);

    assertThat(traces).containsEntry("again", late);
  }

  @Test
  void A3_a_batch_that_does_not_decode_in_the_other_half_fails_the_reading_as_on_one_thread() {
    List<String> texts = new ArrayList<>(texts(40, Map.of()));
    texts.set(39, "{not json");

    assertThatThrownBy(() -> JournalDecoding.decode(null, texts, 1, new HashMap<>(), OTHER))
        .isInstanceOf(DecodeException.class);
  }
}
