package dev.shepherd.runtime.time;

import dev.shepherd.core.Attempt;
import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.JobView;
import dev.shepherd.core.Notice;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.RecentOutcome;
import dev.shepherd.runtime.DeadLetterPage;
import dev.shepherd.runtime.ha.JournalTimes;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where the times the core computes on the monotonic clock become the wall times
 * people read: a snapshot's {@code backoffUntil}, {@code nextDue}, host {@code since}, {@code
 * pausedSince} and its groups' {@code pausedSince} and {@code heldUntil}, a phase
 * notice's {@code backoffUntil}, a lookup's {@code dueAt} and {@code at}, a dead letter's {@code
 * at} and its attempts' {@code startedAt} and {@code endedAt}. The coordinator applies it to
 * everything it hands out (in-JVM handles, bus replies, observers), so every JSON encoder and
 * every caller downstream sees epoch milliseconds. A conversion adds the clock's wall offset as
 * {@link RuntimeClock#wallAt} does: after a step of the wall clock a deadline shows moved by the
 * step (the same instant, as the wall clock now names it), while the deadline itself stays put.
 *
 * <p>The same shift, in either direction, serves the HA journal ({@link JournalTimes}).
 */
public final class WallTimes {
  private WallTimes() {}

  public static PoolSnapshot snapshot(PoolSnapshot s, RuntimeClock clock) {
    long shift = clock.wallOffsetMs();
    List<PoolSnapshot.SlotStatus> slots = s.slots();
    if (slots.stream().anyMatch(slot -> slot.backoffUntil() != null)) {
      slots = new ArrayList<>(s.slots().size());
      for (PoolSnapshot.SlotStatus slot : s.slots()) {
        slots.add(slot.backoffUntil() == null ? slot : new PoolSnapshot.SlotStatus(slot.id(),
            slot.phase(), slot.capacity(), slot.inFlight(), slot.assignments(),
            slot.incarnation(), slot.restarts(), slot.retirement(), slot.backoffUntil() + shift,
            slot.host()));
      }
    }
    List<PoolSnapshot.HostStatus> hosts = s.hosts();
    if (!hosts.isEmpty()) {
      hosts = new ArrayList<>(s.hosts().size());
      for (PoolSnapshot.HostStatus host : s.hosts()) {
        hosts.add(new PoolSnapshot.HostStatus(host.id(), host.node(), host.state(), host.slots(),
            host.since() + shift));
      }
    }
    List<PoolSnapshot.GroupStatus> groups = new ArrayList<>(s.groups().size());
    for (PoolSnapshot.GroupStatus g : s.groups()) {
      groups.add(group(g, shift));
    }
    return new PoolSnapshot(s.name(), s.state(), s.backlogLength(), s.backlogCapacity(), slots,
        s.counters(), s.restartsInWindow(), s.maxRestarts(), s.windowMs(), hosts, s.ha(),
        s.backlogWaiting(), plus(s.nextDue(), shift), s.deadLetters(), s.paused(),
        plus(s.pausedSince(), shift), groups, s.groupCount(), s.size());
  }

  /** A group's {@code pausedSince} and {@code heldUntil} (F4, F5 in docs/rules.md) in wall time. */
  public static PoolSnapshot.GroupStatus group(PoolSnapshot.GroupStatus g, RuntimeClock clock) {
    return group(g, clock.wallOffsetMs());
  }

  private static PoolSnapshot.GroupStatus group(PoolSnapshot.GroupStatus g, long shift) {
    if (g.pausedSince() == null && g.heldUntil() == null) {
      return g;
    }
    return new PoolSnapshot.GroupStatus(g.name(), g.running(), g.queued(), g.concurrency(),
        g.queueCapacity(), g.weight(), g.rateLimit(), g.paused(), plus(g.pausedSince(), shift),
        plus(g.heldUntil(), shift));
  }

  /** {@code notice} with its time (a phase's {@code backoffUntil}, the only one) in wall time. */
  public static Notice notice(Notice notice, RuntimeClock clock) {
    if (notice instanceof Notice.PhaseChanged p && p.backoffUntil() != null) {
      return new Notice.PhaseChanged(p.worker(), p.phase(), p.incarnation(),
          p.backoffUntil() + clock.wallOffsetMs(), p.retirement());
    }
    return notice;
  }

  /** A lookup's view in wall time; null stays null. */
  public static JobView view(JobView view, RuntimeClock clock) {
    if (view == null) {
      return null;
    }
    long shift = clock.wallOffsetMs();
    return new JobView(view.job(), view.state(), view.key(), view.position(),
        plus(view.dueAt(), shift), view.worker(), view.attempts(), view.outcome(),
        plus(view.at(), shift), deadLetter(view.deadLetter(), shift), view.progress());
  }

  public static DeadLetter deadLetter(DeadLetter entry, RuntimeClock clock) {
    return deadLetter(entry, clock.wallOffsetMs());
  }

  public static DeadLetterPage page(DeadLetterPage page, RuntimeClock clock) {
    long shift = clock.wallOffsetMs();
    List<DeadLetter> entries = new ArrayList<>(page.entries().size());
    page.entries().forEach(entry -> entries.add(deadLetter(entry, shift)));
    return new DeadLetterPage(page.pool(), page.size(), page.evicted(), page.offset(),
        page.limit(), entries);
  }

  /** {@code entry} with every time moved by {@code shift}; null stays null. */
  public static DeadLetter deadLetter(DeadLetter entry, long shift) {
    if (entry == null || shift == 0) {
      return entry;
    }
    List<Attempt> attempts = new ArrayList<>(entry.attempts().size());
    for (Attempt a : entry.attempts()) {
      attempts.add(new Attempt(a.attempt(), a.worker(), a.incarnation(), a.startedAt() + shift,
          a.endedAt() + shift, a.ended(), a.detail()));
    }
    return new DeadLetter(entry.job(), entry.key(), entry.payload(), entry.bytes(),
        entry.timeoutMs(), attempts, entry.answer(), entry.at() + shift, entry.group(),
        entry.priority(), entry.retry());
  }

  /** {@code recent} answered {@code shift} later; null stays null. */
  public static RecentOutcome recent(RecentOutcome recent, long shift) {
    return recent == null || shift == 0 ? recent
        : new RecentOutcome(recent.job(), recent.outcome(), recent.at() + shift, recent.bytes());
  }

  private static Long plus(Long at, long shift) {
    return at == null ? null : at + shift;
  }
}
