package dev.shepherd.runtime;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.DurableLeader;
import dev.shepherd.runtime.ha.JournalTimes;
import dev.shepherd.runtime.ha.Leadership;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;

/**
 * The {@link Leadership} of one node of the simulation, over the {@link SimStore} and the
 * world's leader lock, as {@code HazelcastLeadership} is over Hazelcast: a standby tries the lock
 * every {@link #RETRY_MS}; the one that gets it claims the next term (reading the log in the
 * same step) and is told to lead, with the claim's send time on its monotonic clock; writes go
 * to the store under the term. The fake of the cluster, not of the runtime: what the pool does
 * with a term is the real {@link Coordinator}'s and {@link DurableLeader}'s.
 */
final class SimLeadership implements Leadership {
  static final long RETRY_MS = 100;

  private final SimPoolNode node;
  private final SimWorld world;
  private Candidate candidate;
  private boolean claiming;
  /** The term this node leads, or 0 while it stands by. */
  long leading;

  SimLeadership(SimPoolNode node) {
    this.node = node;
    this.world = node.world;
  }

  @Override
  public Future<Void> start(Context context, PoolConfig config, Candidate candidate) {
    this.candidate = candidate;
    node.scheduler().every(RETRY_MS, this::tryLead);
    return Future.succeededFuture();
  }

  private void tryLead() {
    if (leading != 0 || claiming || node.isolated || world.lockHolder != null) {
      return;
    }
    world.lockHolder = node;
    claiming = true;
    long sentAt = node.clock().monotonicMs();
    world.store.claim(node, claimed -> {
      claiming = false;
      if (claimed == null || world.lockHolder != node) {
        if (world.lockHolder == node) {
          world.lockHolder = null;
        }
        return;
      }
      leading = claimed.term();
      candidate.lead(claimed.term(),
          DurableLog.recover(claimed.base(), claimed.batches(), claimed.previousTerm()), sentAt);
    });
  }

  /** The member is merging back, or lost the majority: the leader steps down at once. */
  void lose(String why) {
    if (leading != 0) {
      leading = 0;
      candidate.stepDown(why);
    }
  }

  @Override
  public Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base base) {
    Promise<Void> written = Promise.promise();
    world.log(() -> node + "/" + term + " writes batch " + batch.id() + " ("
        + batch.records().size() + " records" + (base == null ? "" : ", a checkpoint") + ")");
    // A term's first batch goes on with the log it recovered from: the store checks it replays.
    // Its image as the journal holds it: in wall time, as the leader writes a checkpoint's.
    DurableImage image = base == null && batch.id() == 1 && node.coordinator() != null
        ? JournalTimes.toWall(new DurableLog.Base(node.coordinator().pool().durableImage(),
            List.of()), node.coordinator().clock().wallOffsetMs()).image() : null;
    world.store.write(node, term, batch, base, image, node.exactJournal(), ok -> {
      world.log(() -> node + "/" + term + " batch " + batch.id() + (ok ? " written" : " refused"));
      if (ok) {
        written.complete();
      } else {
        written.fail(new IllegalStateException("term " + term + " is no longer the pool's"));
      }
    });
    return written.future();
  }

  @Override
  public void resign(long term) {
    if (leading == term) {
      leading = 0;
    }
    if (world.lockHolder == node) {
      world.lockHolder = null;
    }
  }

  @Override
  public HaStatus status(long term) {
    return new HaStatus(true, true, node.name, term);
  }

  @Override
  public Future<Void> stop() {
    return Future.succeededFuture();
  }
}
