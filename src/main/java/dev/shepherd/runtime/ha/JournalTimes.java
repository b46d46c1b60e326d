package dev.shepherd.runtime.ha;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.WallTimes;
import java.util.ArrayList;
import java.util.List;

/**
 * The times of a highly available pool's journal (A3 in docs/rules.md) as they cross JVMs: a
 * waiting job's {@code dueAt} (in its accepted and requeued records and in the image), a dead
 * letter's times, a recent outcome's {@code at}, and since when the pool or a group is paused
 * (F5 in docs/rules.md: its paused records and the image's pauses). The leader computes them on its own monotonic
 * clock, whose origin no other JVM shares, so they are journaled as <em>wall time</em> ({@link
 * #toWall}) and turned back into the successor's monotonic time when it recovers ({@link
 * #toMonotonic}).
 *
 * <p>Why wall time and not the time remaining: a record is read back at a moment nobody knows
 * in advance (the next failover, possibly hours later, through every batch since the last
 * checkpoint), so a duration remaining when it was written would be counted again from the
 * takeover, adding all the time in between; wall time is the one clock the nodes share. Its
 * cost is bounded and falls on no deadline that guards safety: a waiting job's due time (or a
 * displayed time) moves by the difference between the two nodes' wall clocks (NTP keeps it
 * small), or by a step of the wall clock between the write and the takeover. Leases, job
 * timeouts and host heartbeat deadlines are never journaled: each node measures its own on its
 * own monotonic clock. Nothing else that crosses JVMs carries a time: a heartbeat says only who
 * is alive, and a host's {@code since} is not journaled (a successor counts it from its
 * takeover).
 *
 * <p>A shift of {@link RuntimeClock#wallOffsetMs()} converts one way, its negation the other;
 * {@code dueAt} 0 (not waiting) stays 0.
 */
public final class JournalTimes {
  private JournalTimes() {}

  /** {@code batch} as the journal stores it: its times in wall time, {@code shift} ahead. */
  public static DurableGate.Batch toWall(DurableGate.Batch batch, long shift) {
    if (shift == 0) {
      return batch;
    }
    List<DurableRecord> records = new ArrayList<>(batch.records().size());
    batch.records().forEach(r -> records.add(record(r, shift)));
    return new DurableGate.Batch(batch.id(), records, batch.delivered(), batch.checkpoint(),
        answers(batch.undelivered(), shift), batch.counters());
  }

  /** A checkpoint's base as the journal stores it; null stays null. */
  public static DurableLog.Base toWall(DurableLog.Base base, long shift) {
    return base == null || shift == 0 ? base
        : new DurableLog.Base(image(base.image(), shift), answers(base.undelivered(), shift),
            base.counters());
  }

  /**
   * What the journal held, in the monotonic time of the clock whose wall offset is {@code
   * offset}: the recovering coordinator's.
   */
  public static DurableLog.Recovered toMonotonic(DurableLog.Recovered recovered, long offset) {
    long shift = -offset;
    return shift == 0 ? recovered : new DurableLog.Recovered(image(recovered.image(), shift),
        answers(recovered.undelivered(), shift), recovered.counters(),
        recovered.records());
  }

  private static DurableRecord record(DurableRecord record, long shift) {
    if (record instanceof DurableRecord.Accepted a && a.dueAt() > 0) {
      return a.withDueAt(due(a.dueAt(), shift));
    } else if (record instanceof DurableRecord.Requeued r && r.dueAt() > 0) {
      return new DurableRecord.Requeued(r.job(), r.order(), r.interruption(), r.stops(),
          r.failures(), due(r.dueAt(), shift));
    } else if (record instanceof DurableRecord.Answered a) {
      return answer(a, shift);
    } else if (record instanceof DurableRecord.DeadLettered d) {
      return new DurableRecord.DeadLettered(WallTimes.deadLetter(d.entry(), shift));
    } else if (record instanceof DurableRecord.Paused p) {
      return new DurableRecord.Paused(p.group(), p.since() + shift);
    }
    return record;
  }

  private static DurableRecord.Answered answer(DurableRecord.Answered a, long shift) {
    return a.remembered() == null ? a : new DurableRecord.Answered(a.job(), a.replyTo(),
        a.outcome(), WallTimes.recent(a.remembered(), shift));
  }

  private static List<DurableRecord.Answered> answers(List<DurableRecord.Answered> answers,
      long shift) {
    List<DurableRecord.Answered> moved = new ArrayList<>(answers.size());
    answers.forEach(a -> moved.add(answer(a, shift)));
    return moved;
  }

  private static DurableImage image(DurableImage image, long shift) {
    List<DurableImage.JobImage> jobs = new ArrayList<>(image.jobs().size());
    for (DurableImage.JobImage j : image.jobs()) {
      jobs.add(j.dueAt() <= 0 ? j : j.withDueAt(due(j.dueAt(), shift)));
    }
    List<DeadLetter> dead = new ArrayList<>(image.dead().size());
    image.dead().forEach(d -> dead.add(WallTimes.deadLetter(d, shift)));
    List<RecentOutcome> recent = new ArrayList<>(image.recent().size());
    image.recent().forEach(r -> recent.add(WallTimes.recent(r, shift)));
    List<DurableImage.GroupImage> groups = new ArrayList<>(image.groups().size());
    for (DurableImage.GroupImage g : image.groups()) {
      groups.add(g.pausedSince() == null ? g
          : new DurableImage.GroupImage(g.group(), g.settings(), g.pausedSince() + shift));
    }
    return new DurableImage(image.term(), image.generated(), jobs, image.bindings(),
        image.hosts(), dead, recent, groups,
        image.pausedSince() == null ? null : image.pausedSince() + shift, image.size());
  }

  /** A due time moved by {@code shift}; one that would not be positive is long past: due now. */
  private static long due(long dueAt, long shift) {
    return Math.max(1, dueAt + shift);
  }
}
