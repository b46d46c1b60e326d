package dev.shepherd.runtime.ha;

import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.core.Transition;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.payload.RawJson;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;

/**
 * A takeover's reading of the journal, run on a made-up log while the node stands by, so that a
 * standby that takes over runs it compiled. Read by a JVM that never ran it, a log of 2-4 MB (a
 * pool remembering 10,000 outcomes) took 150-900 ms on the machine of {@code docs/benchmarks.md};
 * read again, 30-60 ms: the interpreter's cost, not the log's, and most of a takeover's claim.
 * The made-up log has the shape of a busy pool's: batches of jobs accepted, assigned and
 * answered (with a remembered outcome), encoded as a leader encodes them ({@link
 * DurableJsonWriter}), decoded and replayed as a successor does ({@link JournalDecoding}, {@link
 * DurableLog#recover}), then the image written and read back as a checkpoint (the base the next
 * takeover reads), and, given the pool's settings, a pool of the next term recovered from it.
 */
public final class RecoveryWarmUp {
  /** Jobs per round, in batches of {@value #PER_BATCH}. */
  static final int JOBS = 4_000;
  static final int PER_BATCH = 50;

  private RecoveryWarmUp() {}

  /** Runs {@code rounds} rounds; the records recovered by the last, to check. */
  public static DurableLog.Recovered run(int rounds) {
    return run(rounds, null);
  }

  /**
   * Runs {@code rounds} rounds, each also recovering a pool of {@code settings} (a durable pool's;
   * null: none) from the made-up log, as a takeover then does ({@link #takeOver}).
   */
  public static DurableLog.Recovered run(int rounds, PoolSettings settings) {
    DurableLog.Recovered recovered = null;
    for (int round = 0; round < rounds; round++) {
      recovered = round();
      if (settings != null && settings.durable()) {
        takeOver(recovered, settings);
      }
    }
    return recovered;
  }

  /**
   * A fresh pool of {@code settings}, of the term after the image's, started and recovered from
   * {@code recovered}: the core's part of a takeover, whose effects are dropped.
   */
  static Transition takeOver(DurableLog.Recovered recovered, PoolSettings settings) {
    Pool pool = Pool.create(settings.withTerm(recovered.image().term() + 1));
    pool.start();
    return pool.apply(new PoolEvent.Recover(recovered.image(), recovered.counters(), 0));
  }

  private static DurableLog.Recovered round() {
    Map<String, JournalTrace> traces = new HashMap<>();
    List<String> texts = new ArrayList<>();
    DurableGate.Batch last = null;
    for (int from = 0; from < JOBS; from += PER_BATCH) {
      last = batch(from / PER_BATCH + 1L, from, last);
      texts.add(text(DurableJsonWriter.write(last, Map.of())));
    }
    JournalDecoding.Decoded read = JournalDecoding.decode(null, texts, 0, traces,
        ForkJoinPool.commonPool());
    DurableLog.Recovered recovered = DurableLog.recover(read.base(), read.batches(), 0);
    DurableLog.Base checkpoint = DurableLog.checkpoint(recovered.image(), last);
    DurableJson.decodeBase(text(DurableJsonWriter.write(checkpoint, Map.of())), traces);
    return recovered;
  }

  /**
   * Jobs {@code from}.. of one batch: all accepted and assigned, the first half answered; the
   * answers of the batch {@code before} it reported delivered (the last batch's are not).
   */
  private static DurableGate.Batch batch(long id, int from, DurableGate.Batch before) {
    List<DurableRecord> records = new ArrayList<>(3 * PER_BATCH);
    List<String> delivered = new ArrayList<>();
    if (before != null) {
      for (DurableRecord record : before.records()) {
        if (record instanceof DurableRecord.Answered answered) {
          delivered.add(answered.job());
        }
      }
    }
    for (int i = from; i < from + PER_BATCH; i++) {
      String job = "warm-" + i;
      byte[] payload = ("{\"echo\":" + i + "}").getBytes(StandardCharsets.UTF_8);
      records.add(new DurableRecord.Accepted(job, 0, i, new RawJson(payload), null,
          "warm.answers", 0, payload.length, null));
      records.add(new DurableRecord.Assigned(job, "w-" + (i % 4), 1));
      if (i - from < PER_BATCH / 2) {
        Outcome.Completed done = new Outcome.Completed(job, new JsonObject().put("echo", i),
            "w-" + (i % 4), 1);
        records.add(new DurableRecord.Answered(job, "warm.answers", done,
            new RecentOutcome(job, done, i, payload.length)));
      }
    }
    return new DurableGate.Batch(id, records, delivered, false, List.of());
  }

  private static String text(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }
}
