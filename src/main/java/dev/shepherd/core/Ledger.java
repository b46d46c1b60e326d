package dev.shepherd.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replays a durable pool's records, in the order they were emitted, onto an image: what a new
 * coordinator reads back from the store. Starting from {@code base} (a checkpoint, or the empty
 * image), each {@link DurableRecord} changes one job, binding or host; {@link #image} is the
 * result. A record that does not fit (a job assigned before it was accepted) is a corrupt log:
 * {@link IllegalStateException}, and nothing changes. Not thread-safe.
 */
public final class Ledger {
  private long generated;
  private final Map<String, DurableImage.JobImage> jobs = new HashMap<>();
  private final TreeMap<String, DurableImage.BindingImage> bindings = new TreeMap<>();
  private final LinkedHashMap<String, DurableImage.HostImage> hosts = new LinkedHashMap<>();
  private final LinkedHashMap<String, DeadLetter> dead = new LinkedHashMap<>();
  private final java.util.ArrayDeque<RecentOutcome> recent = new java.util.ArrayDeque<>();
  private final TreeMap<String, DurableImage.GroupImage> groups = new TreeMap<>();
  private Long pausedSince;
  private PoolSize size;

  /** A ledger holding {@code base}. */
  public Ledger(DurableImage base) {
    generated = base.generated();
    base.jobs().forEach(job -> jobs.put(job.job(), job));
    base.bindings().forEach(b -> bindings.put(b.key(), b));
    base.hosts().forEach(h -> hosts.put(h.host(), h));
    base.dead().forEach(e -> dead.put(e.job(), e));
    recent.addAll(base.recent());
    base.groups().forEach(g -> groups.put(g.group(), g));
    pausedSince = base.pausedSince();
    size = base.size();
  }

  /** Applies one record. */
  public void apply(DurableRecord record) {
    if (record instanceof DurableRecord.Accepted a) {
      if (jobs.containsKey(a.job())) {
        throw new IllegalStateException("job '" + a.job() + "' accepted twice");
      }
      jobs.put(a.job(), DurableImage.JobImage.of(a));
      generated = Math.max(generated, a.generated());
    } else if (record instanceof DurableRecord.Assigned a) {
      jobs.put(a.job(), held(a.job()).assigned(a.worker(), a.attempt()));
    } else if (record instanceof DurableRecord.Requeued r) {
      DurableImage.JobImage j = held(r.job());
      jobs.put(r.job(), j.back(r.order(), j.attempts(), r.interruption(), r.dueAt(), r.stops(),
          r.failures()));
    } else if (record instanceof DurableRecord.Returned r) {
      DurableImage.JobImage j = held(r.job());
      jobs.put(r.job(), j.back(r.order(), r.attempts(), j.interruption(), 0, j.stops(),
          j.failures()));
    } else if (record instanceof DurableRecord.GroupSet g) {
      DurableImage.GroupImage was = groups.get(g.group());
      groups.put(g.group(), new DurableImage.GroupImage(g.group(), g.settings(),
          was == null ? null : was.pausedSince()));
    } else if (record instanceof DurableRecord.Paused p) {
      if (p.group() == null) {
        pausedSince = p.since();
      } else {
        DurableImage.GroupImage was = groups.get(p.group());
        groups.put(p.group(), new DurableImage.GroupImage(p.group(),
            was == null ? null : was.settings(), p.since()));
      }
    } else if (record instanceof DurableRecord.Resumed r) {
      if (r.group() == null) {
        pausedSince = null;
      } else {
        DurableImage.GroupImage was = groups.get(r.group());
        groups.put(r.group(), new DurableImage.GroupImage(r.group(),
            was == null ? null : was.settings(), null));
      }
    } else if (record instanceof DurableRecord.Answered a) {
      held(a.job());
      jobs.remove(a.job());
      if (a.remembered() != null) {
        recent.addLast(a.remembered());
      }
    } else if (record instanceof DurableRecord.Forgotten f) {
      if (recent.isEmpty() || !recent.peekFirst().job().equals(f.job())) {
        throw new IllegalStateException("job '" + f.job() + "' forgotten, but the oldest answer"
            + " remembered is " + (recent.isEmpty() ? "none" : "'" + recent.peekFirst().job() + "'"));
      }
      recent.pollFirst();
    } else if (record instanceof DurableRecord.DeadLettered l) {
      dead.remove(l.entry().job());
      dead.put(l.entry().job(), l.entry());
    } else if (record instanceof DurableRecord.DeadRemoved r) {
      if (dead.remove(r.job()) == null) {
        throw new IllegalStateException("job '" + r.job() + "' left the dead-letter set, but was"
            + " not in it");
      }
    } else if (record instanceof DurableRecord.Bound b) {
      bindings.put(b.key(), new DurableImage.BindingImage(b.key(), b.worker(), b.rebalanced()));
    } else if (record instanceof DurableRecord.Unbound u) {
      bindings.remove(u.key());
    } else if (record instanceof DurableRecord.HostKnown h) {
      hosts.put(h.host(), new DurableImage.HostImage(h.host(), h.node(), h.slots()));
    } else if (record instanceof DurableRecord.Resized r) {
      size = new PoolSize(r.instances(), r.maxConcurrency());
    } else if (record instanceof DurableRecord.Checkpointed c) {
      jobs.put(c.job(), held(c.job()).withCheckpoint(c.progress(), c.bytes()));
    } else if (record instanceof DurableRecord.Retargeted r) {
      jobs.put(r.job(), held(r.job()).withTarget(r.target()));
    } else {
      throw new AssertionError("unhandled " + record);
    }
  }

  /** Applies every record of {@code records}, in order. */
  public void applyAll(List<? extends DurableRecord> records) {
    records.forEach(this::apply);
  }

  /** Whether {@code job} is held (accepted and not answered). */
  public boolean holds(String job) {
    return jobs.containsKey(job);
  }

  /** Jobs held. */
  public int jobCount() {
    return jobs.size();
  }

  /** The image now, as written by a pool of {@code term}. */
  public DurableImage image(long term) {
    List<DurableImage.JobImage> ordered = new ArrayList<>(jobs.values());
    ordered.sort(Comparator.comparingLong(DurableImage.JobImage::order));
    return new DurableImage(term, generated, ordered, new ArrayList<>(bindings.values()),
        new ArrayList<>(hosts.values()), new ArrayList<>(dead.values()),
        new ArrayList<>(recent), new ArrayList<>(groups.values()), pausedSince, size);
  }

  private DurableImage.JobImage held(String job) {
    DurableImage.JobImage j = jobs.get(job);
    if (j == null) {
      throw new IllegalStateException("a record names job '" + job + "', which is not held");
    }
    return j;
  }
}
