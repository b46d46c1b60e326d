package dev.shepherd.cluster.ha;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.ha.DurableJson;
import dev.shepherd.runtime.ha.JournalDecoding;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.payload.LogText;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standby's reading of the pool's log (A3 in docs/rules.md): while it stands by it follows the
 * log, so that a takeover reads only what was written since. Every {@link #FOLLOW_MS} it asks
 * the store for the batches after the place it reached; once the log has a new base, it first
 * only learns where that base is, and reads the whole log (base and batches) only when the
 * next look finds the same base: under a load that checkpoints several times a second it reads
 * next to nothing, and a takeover then reads the whole log as before. What it reads is opened
 * and replayed ({@link DurableLog.Replay}) on a worker thread, in order.
 *
 * <p>The place it reached is known on the coordinator's context as soon as a reading arrives; a
 * claim carries it ({@link #claimFrom}), and readings that arrive once the claim was sent are
 * dropped, so the claim's tail follows exactly what was replayed. A replay that fails (a record
 * that does not fit) leaves it broken: the takeover then reads the whole log.
 */
final class LogFollower {
  /** How often a standby reads what the log gained. */
  static final long FOLLOW_MS = 1_000;
  private static final Logger LOG = LoggerFactory.getLogger(LogFollower.class);

  private final String pool;
  private final HaStore store;
  private final SealedRecords sealed;
  private final Context context;
  private final ReplyRoutes replyRoutes;

  // On the context.
  private HaEntry.Position position;
  private long wantTerm = -1;
  private long wantId = -1;
  private long lastLook = Long.MIN_VALUE / 2;
  private boolean looking;
  /** Bumped by a claim and a reset: a reading asked for before it is dropped. */
  private long generation;
  private long bytesFollowed;

  // On the worker thread, in order (executeBlocking, ordered).
  private SealedRecords.Reader reader;
  private DurableLog.Replay replay;
  private Map<String, JournalTrace> traces = new HashMap<>();
  private volatile boolean broken;

  LogFollower(String pool, HaStore store, SealedRecords sealed, Context context) {
    this(pool, store, sealed, context, address -> { });
  }

  /**
   * A follower that tells {@code replyRoutes} the {@code replyTo} addresses of the jobs it
   * replays, so that the routes its first answers take after a takeover are ready.
   */
  LogFollower(String pool, HaStore store, SealedRecords sealed, Context context,
      ReplyRoutes replyRoutes) {
    this.pool = pool;
    this.store = store;
    this.sealed = sealed;
    this.context = context;
    this.replyRoutes = replyRoutes;
  }

  /** On the context, while standing by: reads what the log gained, if it is time to. */
  void tick(long now) {
    if (looking || now - lastLook < FOLLOW_MS) {
      return;
    }
    lastLook = now;
    looking = true;
    long asked = generation;
    HaEntry.Position from = broken ? null : position;
    store.follow(pool, from, wantTerm, wantId, false).whenComplete((read, error) ->
        context.runOnContext(v -> {
          looking = false;
          if (asked != generation || read == null) {
            if (error != null) {
              LOG.debug("pool {}: following the log failed: {}", pool,
                  LogText.quote(error.toString()));
            }
            return;
          }
          took(from, read);
        }));
  }

  /** A reading arrived (on the context): the new place now, the replay on the worker. */
  private void took(HaEntry.Position from, HaEntry.Read read) {
    if (read.whole()) {
      position = end(read, new HaEntry.Position(read.baseTerm(), read.baseId(), read.baseTerm(),
          read.baseId()));
      bytesFollowed = bytes(read);
      context.executeBlocking(() -> {
        restart(read);
        return null;
      }, true);
    } else if (from != null && from.baseTerm() == read.baseTerm()
        && from.baseId() == read.baseId()) {
      if (read.batches().isEmpty()) {
        return;
      }
      position = end(read, position);
      bytesFollowed += bytes(read);
      context.executeBlocking(() -> {
        apply(HaEntry.texts(read.batches()));
        return null;
      }, true);
    } else {
      // A new base: read it once it stays put until the next look.
      position = null;
      wantTerm = read.baseTerm();
      wantId = read.baseId();
    }
  }

  /** Whether a reading is on its way. */
  boolean looking() {
    return looking;
  }

  /**
   * The place a claim sent now hands the log over from (null: the whole log); readings asked for
   * before it no longer count.
   */
  HaEntry.Position claimFrom() {
    generation++;
    return broken ? null : position;
  }

  /**
   * What a claim won recovers from, on the context once read: the tail the claim handed over,
   * replayed after what this follower replayed, or the whole log. {@code traces} receives the
   * traces its jobs keep (T1 in docs/rules.md).
   */
  Future<DurableLog.Recovered> recover(HaEntry.Claimed claimed,
      Map<String, JournalTrace> traces) {
    if (!claimed.tail()) {
      return context.executeBlocking(() -> whole(claimed.base(), claimed.batches(),
          claimed.previousTerm(), traces), true);
    }
    return context.executeBlocking(() -> {
      if (broken || replay == null) {
        return null;
      }
      apply(claimed.batches());
      if (broken) {
        return null;
      }
      traces.putAll(this.traces);
      return replay.recovered(claimed.previousTerm());
    }, true).compose(recovered -> recovered != null ? Future.succeededFuture(recovered)
        // The replay broke: the whole log, read again.
        : Future.fromCompletionStage(store.follow(pool, null, -1, -1, true), context)
            .compose(read -> context.executeBlocking(() -> whole(read.base(),
                HaEntry.texts(read.batches()), claimed.previousTerm(), traces), true)));
  }

  /** Bytes of the log this follower had read before a takeover, for its log line. */
  long bytesFollowed() {
    return bytesFollowed;
  }

  /** Forgets what it followed (the node leads, or leads no more: the log is another's now). */
  void reset() {
    generation++;
    position = null;
    wantTerm = -1;
    wantId = -1;
    bytesFollowed = 0;
    context.executeBlocking(() -> {
      replay = null;
      reader = null;
      traces = new HashMap<>();
      broken = false;
      return null;
    }, true);
  }

  // ---- on the worker thread ---------------------------------------------------------------------

  private void restart(HaEntry.Read read) {
    broken = false;
    reader = sealed.reader();
    traces = new HashMap<>();
    try {
      String base = read.base() == null ? null : reader.next(SealedRecords.BASE, text(read.base()));
      DurableLog.Base decoded = base == null ? DurableLog.Base.empty(0)
          : DurableJson.decodeBase(base, traces);
      replay = new DurableLog.Replay(decoded);
      for (DurableImage.JobImage job : decoded.image().jobs()) {
        keepReady(job.replyTo());
      }
    } catch (RuntimeException e) {
      broke(e);
      return;
    }
    apply(HaEntry.texts(read.batches()));
  }

  private void apply(List<byte[]> batches) {
    if (broken || replay == null) {
      return;
    }
    try {
      for (byte[] batch : batches) {
        String text = reader.next(SealedRecords.BATCH, text(batch));
        if (text != null) {
          DurableGate.Batch decoded = DurableJson.decodeBatch(text, traces);
          replay.apply(decoded);
          for (DurableRecord record : decoded.records()) {
            if (record instanceof DurableRecord.Accepted accepted) {
              keepReady(accepted.replyTo());
            }
          }
        }
      }
    } catch (RuntimeException e) {
      broke(e);
    }
  }

  /** Routes kept ready only save a takeover time: a failure to keep one stops no following. */
  private void keepReady(Object replyTo) {
    if (replyTo instanceof String address) {
      try {
        replyRoutes.keepReady(address);
      } catch (RuntimeException e) {
        LOG.debug("pool {}: the route to {} is not kept ready: {}", pool, address,
            LogText.quote(String.valueOf(e.getMessage())));
      }
    }
  }

  private void broke(RuntimeException e) {
    broken = true;
    replay = null;
    LOG.warn("pool {}: following the log stopped (a takeover reads the whole log): {}", pool,
        LogText.quote(String.valueOf(e.getMessage())));
  }

  /** The whole log, opened in order and decoded on two threads. */
  private DurableLog.Recovered whole(byte[] base, List<byte[]> batches, long previousTerm,
      Map<String, JournalTrace> traces) {
    SealedRecords.Reader log = sealed.reader();
    String baseText = base == null ? null : log.next(SealedRecords.BASE, text(base));
    List<String> texts = new ArrayList<>(batches.size());
    for (byte[] batch : batches) {
      String opened = log.next(SealedRecords.BATCH, text(batch));
      if (opened != null) {
        texts.add(opened);
      }
    }
    JournalDecoding.Decoded decoded = JournalDecoding.decode(baseText, texts, previousTerm,
        traces, ForkJoinPool.commonPool());
    return DurableLog.recover(decoded.base(), decoded.batches(), previousTerm);
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private static HaEntry.Position end(HaEntry.Read read, HaEntry.Position before) {
    if (read.batches().isEmpty()) {
      return before;
    }
    HaEntry.Stored last = read.batches().get(read.batches().size() - 1);
    return new HaEntry.Position(read.baseTerm(), read.baseId(), last.term(), last.id());
  }

  private static long bytes(HaEntry.Read read) {
    long bytes = read.base() == null ? 0 : read.base().length;
    for (HaEntry.Stored b : read.batches()) {
      bytes += b.text().length;
    }
    return bytes;
  }

  private static String text(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }
}
