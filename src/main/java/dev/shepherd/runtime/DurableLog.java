package dev.shepherd.runtime;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Ledger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a durable pool's store holds, read back by the coordinator that takes over (A3): a base
 * (the last checkpoint: an image and the answers it had not yet seen leave) and the batches
 * written since, in order. {@link #recover} replays them into the image to recover from and the
 * answers to send again: those recorded and never reported delivered.
 */
public final class DurableLog {
  private DurableLog() {}

  /** A checkpoint: the pool's image and the answers not yet known to have left. */
  public record Base(DurableImage image, List<DurableRecord.Answered> undelivered) {
    public Base {
      undelivered = List.copyOf(undelivered);
    }

    /** The store of a pool that never wrote anything. */
    public static Base empty(long term) {
      return new Base(DurableImage.empty(term), List.of());
    }
  }

  /** What a new coordinator starts from. */
  public record Recovered(DurableImage image, List<DurableRecord.Answered> undelivered) {
    public Recovered {
      undelivered = List.copyOf(undelivered);
    }
  }

  /** The base of a checkpoint {@code batch} taken when the pool's image was {@code image}. */
  public static Base checkpoint(DurableImage image, DurableGate.Batch batch) {
    return new Base(image, batch.undelivered());
  }

  /**
   * Replays {@code batches} onto {@code base}; the image carries {@code term}, the term of the
   * coordinator that wrote last. A checkpoint among the batches must have been applied to the
   * base by the store already (it replaces what is before it), so it is not expected here.
   */
  public static Recovered recover(Base base, List<DurableGate.Batch> batches, long term) {
    Ledger ledger = new Ledger(base.image());
    Map<String, DurableRecord.Answered> undelivered = new LinkedHashMap<>();
    base.undelivered().forEach(a -> undelivered.put(a.job(), a));
    for (DurableGate.Batch batch : batches) {
      for (DurableRecord record : batch.records()) {
        ledger.apply(record);
        if (record instanceof DurableRecord.Answered answered) {
          undelivered.put(answered.job(), answered);
        }
      }
      batch.delivered().forEach(undelivered::remove);
    }
    return new Recovered(ledger.image(term), new ArrayList<>(undelivered.values()));
  }
}
