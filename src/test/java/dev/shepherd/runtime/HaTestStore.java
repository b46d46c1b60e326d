package dev.shepherd.runtime;

import dev.shepherd.core.HaStatus;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.ha.DurableJson;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.ha.Leadership;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The store of one highly available pool in tests: acknowledges writes at once, or holds them
 * while {@link #hold}; keeps the journal as JSON text, as {@code HaStore} does.
 */
final class HaTestStore implements Leadership {
  private String base;
  private final List<String> batches = new ArrayList<>();
  private final List<Promise<Void>> held = new ArrayList<>();
  private boolean holding;

  @Override
  public Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base checkpoint) {
    return write(term, batch, checkpoint, Map.of());
  }

  @Override
  public synchronized Future<Void> write(long term, DurableGate.Batch batch,
      DurableLog.Base checkpoint, Map<String, JournalTrace> traces) {
    if (checkpoint != null) {
      base = DurableJson.encode(checkpoint, traces);
      batches.clear();
    } else {
      batches.add(DurableJson.encode(batch, traces));
    }
    Promise<Void> written = Promise.promise();
    if (holding) {
      held.add(written);
    } else {
      written.complete();
    }
    return written.future();
  }

  /** From now on writes wait: the leader is cut off from the store, or paused. */
  synchronized void hold() {
    holding = true;
  }

  /** Acknowledges the writes held (the leader is back). */
  void acknowledgeHeld() {
    List<Promise<Void>> acknowledged;
    synchronized (this) {
      holding = false;
      acknowledged = new ArrayList<>(held);
      held.clear();
    }
    acknowledged.forEach(Promise::complete);
  }

  /** The last checkpoint; none yet: the empty log of term 0. */
  synchronized DurableLog.Base base() {
    return base == null ? DurableLog.Base.empty(0) : DurableJson.decodeBase(base);
  }

  synchronized List<DurableGate.Batch> batches() {
    return batches.stream().map(DurableJson::decodeBatch).toList();
  }

  /** The traces the journal keeps for its jobs (T1 in docs/rules.md), as a new leader reads them. */
  synchronized Map<String, JournalTrace> traces() {
    Map<String, JournalTrace> traces = new HashMap<>();
    if (base != null) {
      DurableJson.decodeBase(base, traces);
    }
    batches.forEach(b -> DurableJson.decodeBatch(b, traces));
    return traces;
  }

  /** What the next term recovers from. */
  DurableLog.Recovered recovered(long term) {
    return DurableLog.recover(base(), batches(), term);
  }

  @Override
  public Future<Void> start(Context context, PoolConfig config, Candidate candidate) {
    return Future.succeededFuture();
  }

  @Override
  public Future<Void> stop() {
    return Future.succeededFuture();
  }

  @Override
  public void resign(long term) {}

  @Override
  public HaStatus status(long term) {
    return new HaStatus(true, true, "test", term);
  }
}
