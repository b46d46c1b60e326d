package dev.shepherd.core.ha;

import dev.shepherd.core.Counters;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Outcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * What lets a durable pool's effects out (A2, A3 in docs/rules.md): the records of a turn are
 * written to the store as one batch, and every effect that follows a record waits until the store
 * has it, so nothing is answered or assigned that a successor would not know of. Up to {@code
 * maxInFlight} batches are in flight at once (one by default), committed in order; the records of
 * the turns meanwhile make up the next one, so a slow store makes batches bigger rather than the
 * pool slower.
 *
 * <p>It is also a lease: an effect leaves only within {@code leaseMs} of sending a batch that the
 * store then acknowledged. A successor exists only after this coordinator's member was removed
 * from the cluster, which takes longer than the lease; so a coordinator that was paused, or cut
 * off, lets nothing out once a newer term may exist. When effects wait only for a fresh lease, an
 * empty batch renews it. A write that fails (fenced by a newer term, no majority) closes the gate
 * for good: the coordinator has stepped down.
 *
 * <p>Answers that left are reported in the next batch ({@link Batch#delivered()}), so a successor
 * sends again only the answers that may not have reached their submitters. An answer leaves when
 * the output says so: at once, or later, when its transport has written it ({@link #left}); one
 * reported before its bytes left the process could be lost with it and never sent again.
 *
 * <p>Every so many records a batch is a checkpoint ({@link Batch#checkpoint()}): the writer
 * stores the pool's whole image instead, and the log behind it is dropped. A coordinator that
 * took over goes on with the log it recovered from ({@link #continueLog}): its first batch holds
 * what the recovery changed, so nothing waits for a whole image to be written first. Pure: no
 * clock, no threads; the caller passes the time, on its monotonic clock (a lease measured on the
 * wall clock would look fresh again after a step back), and runs it on one thread.
 */
public final class DurableGate {
  /** Records since the last checkpoint below which no checkpoint is taken. */
  static final int MIN_CHECKPOINT_RECORDS = 4096;
  /**
   * Records in the log per entry of the image before a checkpoint replaces the log: the image's
   * writing then costs about an eighth of the log's, and a successor reads at most the image and
   * eight records per entry of it, less what a standby already followed. With two per entry
   * (half the log's cost), the HA pool of {@code HaBench} ran 12% slower (docs/benchmarks.md).
   */
  static final int RECORDS_PER_IMAGE_ENTRY = 8;

  /** Where the gate's output goes. */
  public interface Output {
    /**
     * Runs one effect that may now leave. Returns whether it has left: false for an answer that
     * its transport is still writing, which the caller reports with {@link #left} once it is
     * written (until then a checkpoint keeps it among the answers to send again).
     */
    boolean release(Effect effect);

    /**
     * Starts writing {@code batch}; the caller later reports {@link #written} or {@link #failed}
     * with its id.
     */
    void write(Batch batch);
  }

  /**
   * One write to the store: the records of the turns since the last one, in order, and the jobs
   * whose answers left since then. A checkpoint stores the pool's image as of this batch (its
   * records included) and replaces everything before it; {@code undelivered} are then the
   * answers still waiting in the gate, which the checkpoint must keep (empty otherwise). {@code
   * counters} are the pool's totals once its records are applied (null: not kept), which the next
   * term continues (T3 in docs/rules.md).
   */
  public record Batch(long id, List<DurableRecord> records, List<String> delivered,
      boolean checkpoint, List<DurableRecord.Answered> undelivered, Counters counters) {
    public Batch {
      records = List.copyOf(records);
      delivered = List.copyOf(delivered);
      undelivered = List.copyOf(undelivered);
    }

    /** A batch that carries no totals. */
    public Batch(long id, List<DurableRecord> records, List<String> delivered,
        boolean checkpoint, List<DurableRecord.Answered> undelivered) {
      this(id, records, delivered, checkpoint, undelivered, null);
    }
  }

  /** In the queue of waiting effects: everything after it waits for batch {@code id}. */
  private record Barrier(long id) {}

  /** A batch in flight: when it was sent, and whether the store acknowledged it already. */
  private static final class Sent {
    final long id;
    final long at;
    boolean acknowledged;

    Sent(long id, long at) {
      this.id = id;
      this.at = at;
    }
  }

  private final long leaseMs;
  private final Output output;
  private final IntSupplier imageEntries;
  private final Supplier<Counters> totals;
  private final ArrayDeque<Object> waiting = new ArrayDeque<>();
  /** Terminal answers released and not yet reported written ({@link #left}), oldest first. */
  private final ArrayDeque<Effect.Respond> leaving = new ArrayDeque<>();
  private List<DurableRecord> open = new ArrayList<>();
  private List<String> delivered = new ArrayList<>();
  private long nextBatch = 1;
  private long committed;
  /** Batches sent and not yet committed, oldest first, each with when it was sent. */
  private final ArrayDeque<Sent> inFlight = new ArrayDeque<>();
  /** How many batches may be in flight at once (1: each waits for the one before). */
  private final int maxInFlight;
  private long leaseFrom;
  private long recordsSinceCheckpoint;
  private boolean checkpointNext = true;
  private boolean closed;

  /**
   * A gate whose lease starts at {@code leaseFrom} (when the coordinator's claim of its term was
   * sent); {@code imageEntries} tells how many entries the pool's image holds ({@code
   * Pool.durableEntries}: jobs, dead letters, recent outcomes, bindings, hosts), which spaces
   * checkpoints: one comes once the log since the last would pass the larger of {@value
   * #MIN_CHECKPOINT_RECORDS} records and {@value #RECORDS_PER_IMAGE_ENTRY} per entry. The first
   * batch is a checkpoint, so a new coordinator starts its log afresh, unless it goes on with the
   * log it recovered from ({@link #continueLog}).
   */
  public DurableGate(long leaseMs, long leaseFrom, IntSupplier imageEntries, Output output) {
    this(leaseMs, leaseFrom, imageEntries, () -> null, 1, output);
  }

  /**
   * A gate whose batches carry the pool's totals, read from {@code totals} as each batch is sent
   * (when every record before it was offered), so that the next term continues them (T3 in
   * docs/rules.md).
   */
  public DurableGate(long leaseMs, long leaseFrom, IntSupplier imageEntries,
      Supplier<Counters> totals, Output output) {
    this(leaseMs, leaseFrom, imageEntries, totals, 1, output);
  }

  /**
   * A gate that keeps up to {@code maxInFlight} batches in flight: a turn's batch is sent while
   * earlier ones are still being written, and a batch commits only once it and every batch before
   * it are acknowledged, so effects still leave in order and only after everything they follow is
   * stored. The store must then keep only an unbroken run of batches after its checkpoint (one
   * written after a batch that failed is not part of the log).
   */
  public DurableGate(long leaseMs, long leaseFrom, IntSupplier imageEntries,
      Supplier<Counters> totals, int maxInFlight, Output output) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1: " + maxInFlight);
    }
    this.maxInFlight = maxInFlight;
    this.leaseMs = leaseMs;
    this.leaseFrom = leaseFrom;
    this.imageEntries = imageEntries;
    this.totals = totals;
    this.output = output;
  }

  /**
   * The store's log goes on from the one this gate's coordinator recovered from, which held
   * {@code records} after its base: the first batch is not a checkpoint, and the next checkpoint
   * comes when the log, those records included, is due one. The store must keep a new term's
   * batches after the log its claim read. Call before the first batch is sent.
   */
  public void continueLog(long records) {
    if (nextBatch != 1) {
      throw new IllegalStateException("batch " + (nextBatch - 1) + " was sent already");
    }
    checkpointNext = false;
    recordsSinceCheckpoint = records;
  }

  /** The effects of one transition, in order; call {@link #pump} at the end of the turn. */
  public void offer(List<Effect> effects) {
    if (closed) {
      return;
    }
    for (int i = 0; i < effects.size(); i++) {
      Effect effect = effects.get(i);
      if (effect instanceof Effect.Persist persist) {
        open.add(persist.record());
        Object last = waiting.peekLast();
        if (!(last instanceof Barrier b) || b.id() != nextBatch) {
          waiting.addLast(new Barrier(nextBatch));
        }
      } else {
        waiting.addLast(effect);
      }
    }
  }

  /**
   * Lets out what may leave at {@code now}, then starts the next write if none is in flight and
   * there is something to write (records, answers to report, or a lease to renew).
   */
  public void pump(long now) {
    if (closed) {
      return;
    }
    boolean fresh = now - leaseFrom < leaseMs;
    while (!waiting.isEmpty()) {
      Object head = waiting.peekFirst();
      if (head instanceof Barrier barrier) {
        if (barrier.id() > committed) {
          break;
        }
        waiting.pollFirst();
        continue;
      }
      if (!fresh) {
        break;
      }
      waiting.pollFirst();
      Effect effect = (Effect) head;
      boolean leftNow = output.release(effect);
      if (effect instanceof Effect.Respond respond && reported(respond)) {
        if (leftNow) {
          delivered.add(respond.outcome().job());
        } else {
          leaving.addLast(respond);
        }
      }
    }
    if (inFlight.size() < maxInFlight && !closed) {
      // A lease is renewed by an acknowledgement; one in flight will bring it.
      boolean renew = inFlight.isEmpty() && !fresh && !waiting.isEmpty()
          && !(waiting.peekFirst() instanceof Barrier);
      if (!open.isEmpty() || !delivered.isEmpty() || renew) {
        send(now);
      }
    }
  }

  /**
   * Renews the lease when half of it is gone and nothing is being written, so that an idle
   * coordinator finds out soon that it was replaced (its write is refused). Call periodically.
   */
  public void renew(long now) {
    if (!closed && inFlight.isEmpty() && now - leaseFrom >= leaseMs / 2) {
      send(now);
    }
  }

  private void send(long now) {
    long due = Math.max(MIN_CHECKPOINT_RECORDS,
        (long) RECORDS_PER_IMAGE_ENTRY * imageEntries.getAsInt());
    boolean checkpoint = checkpointNext || recordsSinceCheckpoint + open.size() > due;
    Batch batch = new Batch(nextBatch++, open, delivered, checkpoint,
        checkpoint ? waitingAnswers() : List.of(), totals.get());
    open = new ArrayList<>();
    delivered = new ArrayList<>();
    if (checkpoint) {
      recordsSinceCheckpoint = 0;
      checkpointNext = false;
    } else {
      recordsSinceCheckpoint += batch.records().size();
    }
    inFlight.addLast(new Sent(batch.id(), now));
    output.write(batch);
  }

  /**
   * Whether {@code respond} is an answer whose delivery a batch reports (a terminal outcome, not a
   * rejection): the only answers whose leaving {@link Output#release} need tell.
   */
  public static boolean reported(Effect.Respond respond) {
    return respond.outcome().terminal() && !(respond.outcome() instanceof Outcome.Rejected);
  }

  /**
   * The answer {@code respond}, which {@link Output#release} said was still being written, has
   * left (or its transport gave up on it): the next batch reports it delivered; {@link #pump}
   * sends one. Pass the effect the output was given.
   */
  public void left(Effect.Respond respond) {
    if (closed) {
      return;
    }
    for (Iterator<Effect.Respond> it = leaving.iterator(); it.hasNext(); ) {
      if (it.next() == respond) {
        it.remove();
        delivered.add(respond.outcome().job());
        return;
      }
    }
  }

  /**
   * The terminal answers not yet reported delivered, as records a checkpoint keeps: those still
   * being written, then those waiting to leave.
   */
  private List<DurableRecord.Answered> waitingAnswers() {
    List<DurableRecord.Answered> answers = new ArrayList<>();
    for (Effect.Respond respond : leaving) {
      answers.add(answered(respond));
    }
    for (Object item : waiting) {
      if (item instanceof Effect.Respond respond && reported(respond)) {
        answers.add(answered(respond));
      }
    }
    return answers;
  }

  private static DurableRecord.Answered answered(Effect.Respond respond) {
    return new DurableRecord.Answered(respond.outcome().job(), respond.replyTo(),
        respond.outcome());
  }

  /**
   * Answers to send again, which an earlier coordinator recorded and never reported delivered
   * (A3 in docs/rules.md); they leave, and are reported, like the pool's own.
   */
  public void resend(List<DurableRecord.Answered> undelivered) {
    offer(resent(undelivered));
  }

  /** The answers {@link #resend} offers, as effects to offer with others in order. */
  public static List<Effect> resent(List<DurableRecord.Answered> undelivered) {
    List<Effect> effects = new ArrayList<>(undelivered.size());
    for (DurableRecord.Answered answered : undelivered) {
      effects.add(new Effect.Respond(answered.replyTo(), answered.outcome()));
    }
    return effects;
  }

  /**
   * The store acknowledged batch {@code id}: once every batch before it is acknowledged too, what
   * waited for them may leave, and the lease runs from when the last of them was sent.
   */
  public void written(long id, long now) {
    if (closed) {
      return;
    }
    boolean found = false;
    for (Sent sent : inFlight) {
      if (sent.id == id) {
        sent.acknowledged = true;
        found = true;
        break;
      }
    }
    if (!found) {
      return;
    }
    boolean moved = false;
    while (!inFlight.isEmpty() && inFlight.peekFirst().acknowledged) {
      Sent done = inFlight.pollFirst();
      committed = done.id;
      leaseFrom = done.at;
      moved = true;
    }
    if (moved) {
      pump(now);
    }
  }

  /**
   * Batch {@code id} was not written (a newer term, no majority, the store unreachable): the gate
   * closes and drops everything it held. Nothing leaves any more.
   */
  public void failed(long id) {
    closed = true;
    waiting.clear();
    leaving.clear();
    open = new ArrayList<>();
    delivered = new ArrayList<>();
    inFlight.clear();
  }

  /** Closes the gate (the coordinator steps down for another reason). */
  public void close() {
    failed(-1);
  }

  public boolean closed() {
    return closed;
  }

  /** Effects waiting (for a write or a lease), for status and tests. */
  public int waiting() {
    int count = 0;
    for (Object item : waiting) {
      if (item instanceof Effect) {
        count++;
      }
    }
    return count;
  }

  /** Answers released and not yet reported written, for tests. */
  public int leaving() {
    return leaving.size();
  }

  /** Whether a write is in flight. */
  public boolean writing() {
    return !inFlight.isEmpty();
  }
}
