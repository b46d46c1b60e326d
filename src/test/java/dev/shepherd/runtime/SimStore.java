package dev.shepherd.runtime;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The replicated store of the simulation, as the cluster's meta entry of a pool is: the current
 * term, the base (last checkpoint) and the batches since, changed only by atomic operations that
 * check the caller's term. It never loses what it acknowledged (a synchronous backup); an
 * operation from an isolated member fails (no majority). Requests and answers cross the network.
 */
final class SimStore {
  /** What a claim returns: the new term and the log to recover from. */
  record Claimed(long term, long previousTerm, DurableLog.Base base,
      List<DurableGate.Batch> batches) {}

  private final SimWorld world;
  long term;
  private DurableLog.Base base = DurableLog.Base.empty(0);
  private final List<DurableGate.Batch> batches = new ArrayList<>();
  /** The term of the coordinator that wrote last. */
  private long writtenBy;

  SimStore(SimWorld world) {
    this.world = world;
  }

  /** Increments the term and reads the log, atomically; null to {@code answer} if isolated. */
  void claim(SimNode caller, Consumer<Claimed> answer) {
    world.after(world.delay(), () -> {
      if (caller.isolated || caller.state == SimNode.State.DEAD) {
        world.send(caller, () -> answer.accept(null));
        return;
      }
      long previous = term;
      term++;
      Claimed claimed = new Claimed(term, writtenBy, base, List.copyOf(batches));
      world.log(caller + " claimed term " + term);
      world.send(caller, () -> answer.accept(claimed));
    });
  }

  /**
   * Appends {@code batch} (a checkpoint replaces the log with {@code image} first) if {@code
   * term} is still the current one; answers whether it did.
   */
  void write(SimNode caller, long callerTerm, DurableGate.Batch batch, DurableImage image,
      Consumer<Boolean> answer) {
    world.after(world.delay(), () -> {
      boolean ok = !caller.isolated && caller.state != SimNode.State.DEAD && callerTerm == term;
      if (ok) {
        if (batch.checkpoint()) {
          base = DurableLog.checkpoint(image, batch);
          batches.clear();
        } else {
          batches.add(batch);
        }
        writtenBy = callerTerm;
      }
      world.send(caller, () -> answer.accept(ok));
    });
  }

  /** What a coordinator taking over now would recover. */
  DurableLog.Recovered peek() {
    return DurableLog.recover(base, batches, writtenBy);
  }

  /** Batches since the last checkpoint (for the report). */
  int batches() {
    return batches.size();
  }

  /** Records replyTo objects as the codec does: an address string, or null. */
  static DurableRecord durable(DurableRecord record) {
    if (record instanceof DurableRecord.Accepted a) {
      return new DurableRecord.Accepted(a.job(), a.generated(), a.order(), a.payload(), a.key(),
          address(a.replyTo()), a.timeoutMs(), a.bytes(), a.target());
    }
    if (record instanceof DurableRecord.Answered a) {
      return new DurableRecord.Answered(a.job(), address(a.replyTo()), a.outcome());
    }
    return record;
  }

  static DurableImage durable(DurableImage image) {
    List<DurableImage.JobImage> jobs = new ArrayList<>();
    for (DurableImage.JobImage j : image.jobs()) {
      jobs.add(new DurableImage.JobImage(j.job(), j.generated(), j.order(), j.payload(), j.key(),
          address(j.replyTo()), j.timeoutMs(), j.bytes(), j.target(), j.attempts(), j.worker(),
          j.interruption()));
    }
    return new DurableImage(image.term(), image.generated(), jobs, image.bindings(),
        image.hosts());
  }

  static DurableGate.Batch durable(DurableGate.Batch batch) {
    return new DurableGate.Batch(batch.id(), batch.records().stream().map(SimStore::durable)
        .toList(), batch.delivered(), batch.checkpoint(), batch.undelivered().stream()
        .map(a -> (DurableRecord.Answered) durable(a)).toList());
  }

  private static Object address(Object replyTo) {
    return replyTo instanceof SimCoordinator.Reply reply ? reply.address() : replyTo;
  }
}
