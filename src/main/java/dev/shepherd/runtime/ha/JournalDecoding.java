package dev.shepherd.runtime.ha;

import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Decodes the journal a takeover reads back (A3 in docs/rules.md), the base and the batches as
 * the texts {@link DurableJsonWriter} wrote, on two threads: the calling one decodes the first
 * half of the bytes, {@code other} the second, and the results are put together in the journal's
 * order. Decoding the text is most of a takeover's reading of a large log (docs/benchmarks.md,
 * HA section), and the texts are independent of one another. A log too small to be worth a
 * second thread is decoded on the calling one.
 */
public final class JournalDecoding {
  /** Below this many characters, one thread decodes it all. */
  static final long SPLIT_FROM = 256 * 1024;

  private JournalDecoding() {}

  /** A decoded journal: its base (empty of {@code term} when there was none) and its batches. */
  public record Decoded(DurableLog.Base base, List<DurableGate.Batch> batches) {}

  /**
   * Decodes {@code base} (null: none, the empty log of {@code term}) and {@code batches}, in
   * order; the traces they keep (T1 in docs/rules.md) go into {@code traces}, a later one of a
   * job replacing an earlier one as in a reading on one thread. A text that does not decode
   * throws, as {@link DurableJson} does.
   */
  public static Decoded decode(String base, List<String> batches, long term,
      Map<String, JournalTrace> traces, Executor other) {
    long total = base == null ? 0 : base.length();
    for (String batch : batches) {
      total += batch.length();
    }
    int split = batches.size();
    if (total >= SPLIT_FROM) {
      long head = base == null ? 0 : base.length();
      split = 0;
      while (split < batches.size() && head < total / 2) {
        head += batches.get(split++).length();
      }
    }
    List<String> tailTexts = batches.subList(split, batches.size());
    Map<String, JournalTrace> tailTraces = new HashMap<>();
    CompletableFuture<List<DurableGate.Batch>> tail = tailTexts.isEmpty()
        ? CompletableFuture.completedFuture(List.of())
        : CompletableFuture.supplyAsync(() -> decodeAll(tailTexts, tailTraces), other);
    DurableLog.Base decodedBase = base == null ? DurableLog.Base.empty(term)
        : DurableJson.decodeBase(base, traces);
    List<DurableGate.Batch> decoded = decodeAll(batches.subList(0, split), traces);
    try {
      decoded.addAll(tail.join());
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
    traces.putAll(tailTraces);
    return new Decoded(decodedBase, decoded);
  }

  private static List<DurableGate.Batch> decodeAll(List<String> texts,
      Map<String, JournalTrace> traces) {
    List<DurableGate.Batch> batches = new ArrayList<>(texts.size());
    for (String text : texts) {
      batches.add(DurableJson.decodeBatch(text, traces));
    }
    return batches;
  }
}
