package dev.shepherd.core.ha;

import dev.shepherd.core.Counters;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Ledger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a durable pool's store holds, read back by the coordinator that takes over (A3 in
 * docs/rules.md): a base (the last checkpoint: an image and the answers it had not yet seen leave)
 * and the batches written since, in order. {@link #recover} replays them into the image to recover
 * from, the answers to send again (those recorded and never reported delivered) and the totals
 * the last write carried, from which the counters go on (T3 in docs/rules.md).
 */
public final class DurableLog {
  private DurableLog() {}

  /**
   * A checkpoint: the pool's image, the answers not yet known to have left and the pool's totals
   * (null: not kept; T3 in docs/rules.md).
   */
  public record Base(DurableImage image, List<DurableRecord.Answered> undelivered,
      Counters counters) {
    public Base {
      undelivered = List.copyOf(undelivered);
    }

    /** A checkpoint without totals. */
    public Base(DurableImage image, List<DurableRecord.Answered> undelivered) {
      this(image, undelivered, null);
    }

    /** The store of a pool that never wrote anything. */
    public static Base empty(long term) {
      return new Base(DurableImage.empty(term), List.of());
    }
  }

  /**
   * What a new coordinator starts from; {@code counters} are the totals of the last write (null:
   * none kept), from which its counters continue (T3 in docs/rules.md). {@code records} is how
   * many records the log held after its base: the new coordinator's batches go on after them
   * ({@link DurableGate#continueLog}), and its first checkpoint comes when the log, theirs
   * included, is long enough.
   */
  public record Recovered(DurableImage image, List<DurableRecord.Answered> undelivered,
      Counters counters, long records) {
    public Recovered {
      undelivered = List.copyOf(undelivered);
    }

    /** A recovery from {@code image} alone (no log after it). */
    public Recovered(DurableImage image, List<DurableRecord.Answered> undelivered,
        Counters counters) {
      this(image, undelivered, counters, 0);
    }

    /** A recovery without totals. */
    public Recovered(DurableImage image, List<DurableRecord.Answered> undelivered) {
      this(image, undelivered, null);
    }
  }

  /** The base of a checkpoint {@code batch} taken when the pool's image was {@code image}. */
  public static Base checkpoint(DurableImage image, DurableGate.Batch batch) {
    return new Base(image, batch.undelivered(), batch.counters());
  }

  /**
   * Replays {@code batches} onto {@code base}; the image carries {@code term}, the term of the
   * coordinator that wrote last. A checkpoint among the batches must have been applied to the
   * base by the store already (it replaces what is before it), so it is not expected here. The
   * batches may be of several terms, in order: a coordinator that took over goes on with the log
   * it recovered from, its first batch holding what its recovery changed.
   *
   * <p>A batch's {@code delivered} jobs are answers that left before the batch was sent, so
   * their records are in earlier batches: they are crossed off before the batch's own records
   * are read, or an answer recorded in the batch would be taken for one that left. A job id may
   * be answered more than once (a caller's id used again once answered, a dead letter replayed
   * under its id, J5 in docs/rules.md): the answers of one job leave in the order they were
   * recorded, so a delivered job crosses off its oldest undelivered answer.
   */
  public static Recovered recover(Base base, List<DurableGate.Batch> batches, long term) {
    Replay replay = new Replay(base);
    batches.forEach(replay::apply);
    return replay.recovered(term);
  }

  /**
   * {@link #recover} a batch at a time: a standby that follows the log as it is written replays
   * what it has read so far, and a takeover then replays only what it had not.
   */
  public static final class Replay {
    private final Ledger ledger;
    private final Undelivered undelivered = new Undelivered();
    private Counters counters;
    private long records;

    public Replay(Base base) {
      ledger = new Ledger(base.image());
      base.undelivered().forEach(undelivered::add);
      counters = base.counters();
    }

    /** Replays the next batch of the log (a record that does not fit throws, as a Ledger's). */
    public void apply(DurableGate.Batch batch) {
      records += batch.records().size();
      if (batch.counters() != null) {
        counters = batch.counters();
      }
      batch.delivered().forEach(undelivered::left);
      for (DurableRecord record : batch.records()) {
        ledger.apply(record);
        if (record instanceof DurableRecord.Answered answered) {
          undelivered.add(answered);
        }
      }
    }

    /** What a coordinator recovers from the log replayed so far, written last in {@code term}. */
    public Recovered recovered(long term) {
      return new Recovered(ledger.image(term), undelivered.inOrder(), counters, records);
    }
  }

  /** Answers recorded and not reported delivered, in the order they were recorded. */
  private static final class Undelivered {
    private final Map<Long, DurableRecord.Answered> bySequence = new LinkedHashMap<>();
    private final Map<String, ArrayDeque<Long>> byJob = new HashMap<>();
    private long sequence;

    void add(DurableRecord.Answered answered) {
      long at = sequence++;
      bySequence.put(at, answered);
      byJob.computeIfAbsent(answered.job(), job -> new ArrayDeque<>(1)).addLast(at);
    }

    /** An answer of {@code job} left: its oldest one not known to have left. */
    void left(String job) {
      ArrayDeque<Long> answers = byJob.get(job);
      if (answers == null) {
        return;
      }
      bySequence.remove(answers.pollFirst());
      if (answers.isEmpty()) {
        byJob.remove(job);
      }
    }

    List<DurableRecord.Answered> inOrder() {
      return new ArrayList<>(bySequence.values());
    }
  }
}
