package dev.shepherd.runtime;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.ha.DurableJson;
import dev.shepherd.runtime.ha.JournalTimes;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.wire.Responder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The replicated store of the simulation, as the cluster's meta entry of a pool is ({@code
 * HaStore}): the current term, the base (last checkpoint) and the batches since, changed only by
 * atomic operations that check the caller's term; {@link SimLeadership} is the {@link
 * Leadership} over it. It never loses what it acknowledged (a synchronous backup); an
 * operation from an isolated member fails (no majority). Requests and answers cross the network.
 *
 * <p>It holds what {@link DurableJson} reads back from the text it writes (as {@code HaStore}
 * holds text): every checkpoint and every {@value #ENCODED}th batch go through JSON, and must
 * read back equal (the rest are kept as written, to keep the simulation fast; {@link
 * DurableJsonTest} covers the codec field by field). At every checkpoint it checks A3 itself:
 * the log it holds, with the checkpoint's own records, replays into exactly the image the
 * writing pool computes of itself. It checks the same at the first batch of every term, which
 * goes on with the log its pool recovered from: so a takeover loses nothing (waiting jobs,
 * suspects, dead letters and recent outcomes included), and what it changed is in its records.
 */
final class SimStore {
  /** What a claim returns: the new term and the log to recover from. */
  record Claimed(long term, long previousTerm, DurableLog.Base base,
      List<DurableGate.Batch> batches) {}

  /** One batch in this many goes through JSON. */
  static final int ENCODED = 16;

  private final SimWorld world;
  long term;
  private DurableLog.Base base = DurableLog.Base.empty(0);
  private final List<DurableGate.Batch> batches = new ArrayList<>();
  private long written;
  /** The term that wrote last, for a claim to recover from. */
  private long writtenBy;
  /** Checkpoints whose image the log was checked against. */
  long checkpointsChecked;
  /**
   * Checkpoints not checked: their writer's wall clock stepped since it recovered, which moves
   * the journaled due times of its later records by the step (the cost {@link JournalTimes}
   * states), so the image no longer replays exactly.
   */
  long checkpointsInexact;

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
      term++;
      Claimed claimed = new Claimed(term, writtenBy, base, List.copyOf(batches));
      world.log(caller + " claimed term " + term);
      world.send(caller, () -> answer.accept(claimed));
    });
  }

  /**
   * Appends {@code batch} (a checkpoint replaces the log with {@code checkpoint} instead) if
   * {@code callerTerm} is still the current one; answers whether it did. Both are as the leader
   * journals them (wall times, {@link JournalTimes}); {@code exact} says whether the leader's
   * wall clock stayed put since it recovered, so that its image must replay exactly. {@code
   * image}, when not null, is the writing pool's image as of a batch that is not a checkpoint,
   * which the log must then replay into as well.
   */
  void write(SimNode caller, long callerTerm, DurableGate.Batch batch, DurableLog.Base checkpoint,
      DurableImage image, boolean exact, Consumer<Boolean> answer) {
    DurableImage expected = image == null ? null : durable(image);
    DurableGate.Batch kept = durable(batch);
    DurableLog.Base base = checkpoint == null ? null
        : new DurableLog.Base(durable(checkpoint.image()), checkpoint.undelivered().stream()
            .map(a -> (DurableRecord.Answered) durable(a)).toList());
    world.after(world.delay(), () -> {
      boolean ok = !caller.isolated && caller.state != SimNode.State.DEAD && callerTerm == term;
      if (ok) {
        if (kept.checkpoint()) {
          if (exact) {
            check(caller, callerTerm, kept, base.image());
          } else {
            checkpointsInexact++;
          }
          this.base = throughJson(base);
          batches.clear();
        } else {
          if (expected != null && exact) {
            check(caller, callerTerm, kept, expected);
          } else if (expected != null) {
            checkpointsInexact++;
          }
          batches.add(++written % ENCODED == 0 ? throughJson(kept) : kept);
        }
        writtenBy = callerTerm;
      }
      world.send(caller, () -> answer.accept(ok));
    });
  }

  /** A3: the log so far and the batch's records rebuild the image of the pool that wrote it. */
  private void check(SimNode caller, long callerTerm, DurableGate.Batch batch,
      DurableImage image) {
    List<DurableGate.Batch> log = new ArrayList<>(batches);
    log.add(throughJson(batch));
    DurableImage replayed = DurableLog.recover(base, log, callerTerm).image();
    checkpointsChecked++;
    if (!replayed.equals(image)) {
      world.violation("A3 " + caller + " of term " + callerTerm + ": its log replays into "
          + difference(image, replayed));
    }
  }

  /** {@code batch} as DurableJson reads it back; a difference is a violation. */
  private DurableGate.Batch throughJson(DurableGate.Batch batch) {
    DurableGate.Batch read = DurableJson.decodeBatch(DurableJson.encode(batch));
    if (!read.equals(batch)) {
      world.violation("A3 batch " + batch.id() + " reads back from JSON as " + read + ", not "
          + batch);
    }
    return read;
  }

  private DurableLog.Base throughJson(DurableLog.Base written) {
    DurableLog.Base read = DurableJson.decodeBase(DurableJson.encode(written));
    if (!read.equals(written)) {
      world.violation("A3 a checkpoint reads back from JSON with "
          + difference(written.image(), read.image()));
    }
    return read;
  }

  /** Where two images first differ, shortly. */
  private static String difference(DurableImage pool, DurableImage replayed) {
    List<List<?>> ours = List.of(pool.jobs(), pool.bindings(), pool.hosts(), pool.dead(),
        pool.recent());
    List<List<?>> theirs = List.of(replayed.jobs(), replayed.bindings(), replayed.hosts(),
        replayed.dead(), replayed.recent());
    String[] names = {"jobs", "bindings", "hosts", "dead", "recent"};
    for (int i = 0; i < names.length; i++) {
      List<?> a = ours.get(i);
      List<?> b = theirs.get(i);
      for (int k = 0; k < Math.max(a.size(), b.size()); k++) {
        Object x = k < a.size() ? a.get(k) : null;
        Object y = k < b.size() ? b.get(k) : null;
        if (!java.util.Objects.equals(x, y)) {
          return names[i] + "[" + k + "] " + y + ", but the pool has " + x;
        }
      }
    }
    return "term/generated " + replayed.term() + "/" + replayed.generated() + ", but the pool has "
        + pool.term() + "/" + pool.generated();
  }

  /** Records replyTo objects as the codec does: an address string, or null. */
  static DurableRecord durable(DurableRecord record) {
    if (record instanceof DurableRecord.Accepted a) {
      return new DurableRecord.Accepted(a.job(), a.generated(), a.order(), a.payload(), a.key(),
          address(a.replyTo()), a.timeoutMs(), a.bytes(), a.target(), a.dueAt(), a.retry());
    }
    if (record instanceof DurableRecord.Answered a) {
      return new DurableRecord.Answered(a.job(), address(a.replyTo()), a.outcome(),
          a.remembered());
    }
    return record;
  }

  static DurableImage durable(DurableImage image) {
    List<DurableImage.JobImage> jobs = new ArrayList<>();
    for (DurableImage.JobImage j : image.jobs()) {
      jobs.add(new DurableImage.JobImage(j.job(), j.generated(), j.order(), j.payload(), j.key(),
          address(j.replyTo()), j.timeoutMs(), j.bytes(), j.target(), j.attempts(), j.worker(),
          j.interruption(), j.dueAt(), j.front(), j.stops(), j.failures(), j.retry()));
    }
    return new DurableImage(image.term(), image.generated(), jobs, image.bindings(),
        image.hosts(), image.dead(), image.recent());
  }

  static DurableGate.Batch durable(DurableGate.Batch batch) {
    return new DurableGate.Batch(batch.id(), batch.records().stream().map(SimStore::durable)
        .toList(), batch.delivered(), batch.checkpoint(), batch.undelivered().stream()
        .map(a -> (DurableRecord.Answered) durable(a)).toList());
  }

  private static Object address(Object replyTo) {
    return replyTo instanceof Responder responder ? responder.address() : replyTo;
  }
}
