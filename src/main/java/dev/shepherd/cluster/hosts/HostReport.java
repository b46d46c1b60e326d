package dev.shepherd.cluster.hosts;

import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import dev.shepherd.core.PoolEvent;
import java.util.List;
import java.util.Objects;

/**
 * One thing a worker host reports to its pool's coordinator: a finished assignment, or a fact
 * about an incarnation (created, failed to deploy, stopped by itself). Each is one core event.
 */
public sealed interface HostReport {

  /** The slot it is about ({@code <host>/w-N}). */
  String worker();

  /** The core event it becomes at the coordinator, at {@code now}. */
  PoolEvent toEvent(long now);

  /**
   * An assignment finished: {@code error} null means the job returned {@code result}. {@code
   * runNanos} is how long it ran, measured on the host ({@link #UNMEASURED} when not said), so the
   * pool's run-time histogram covers its hosts' slots too (T3 in docs/rules.md).
   */
  record Completion(String worker, long assignment, Object result, JobError error, long runNanos)
      implements HostReport {
    /** A run time the report does not give. */
    public static final long UNMEASURED = -1;

    public Completion {
      Objects.requireNonNull(worker, "worker");
      if (runNanos < 0) {
        runNanos = UNMEASURED;
      }
    }

    /** A completion that says nothing of its run time. */
    public Completion(String worker, long assignment, Object result, JobError error) {
      this(worker, assignment, result, error, UNMEASURED);
    }

    @Override
    public PoolEvent toEvent(long now) {
      return new PoolEvent.Completed(worker, assignment, result, error, now);
    }
  }

  /**
   * An assignment's handler answered "rate limited for {@code holdMs}" (F4 in docs/rules.md): the
   * coordinator puts the job back and holds its group, wherever the job ran.
   */
  record RateLimited(String worker, long assignment, long holdMs) implements HostReport {
    public RateLimited {
      Objects.requireNonNull(worker, "worker");
      if (holdMs < 0) {
        throw new IllegalArgumentException("holdMs must not be negative: " + holdMs);
      }
    }

    @Override
    public PoolEvent toEvent(long now) {
      return new PoolEvent.RateLimited(worker, assignment, holdMs, now);
    }
  }

  /**
   * T2 (docs/rules.md): the attempt holding {@code assignment} reported {@code progress}, which
   * costs {@code bytes} as JSON; fenced by the pool like a completion.
   */
  record Progress(String worker, long assignment, Object progress, long bytes)
      implements HostReport {
    public Progress {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(progress, "progress");
    }

    @Override
    public PoolEvent toEvent(long now) {
      return new PoolEvent.Progress(worker, assignment, progress, bytes, now);
    }
  }

  /** Incarnation {@code incarnation} deployed. */
  record Created(String worker, int incarnation) implements HostReport {
    public Created {
      Objects.requireNonNull(worker, "worker");
    }

    @Override
    public PoolEvent toEvent(long now) {
      return new PoolEvent.WorkerCreated(worker, incarnation, now);
    }
  }

  /** Incarnation {@code incarnation} failed to deploy; {@code cause} may be null. */
  record CreationFailed(String worker, int incarnation, String cause) implements HostReport {
    public CreationFailed {
      Objects.requireNonNull(worker, "worker");
    }

    @Override
    public PoolEvent toEvent(long now) {
      return new PoolEvent.CreationFailed(worker, incarnation, cause, now);
    }
  }

  /**
   * Incarnation {@code incarnation} stopped by itself: {@code CRASH}, or {@code NORMAL} when the
   * worker undeployed itself. {@code cause} may be null.
   */
  record Stopped(String worker, int incarnation, Exit exit, String cause) implements HostReport {
    public Stopped {
      Objects.requireNonNull(worker, "worker");
      Objects.requireNonNull(exit, "exit");
      if (exit != Exit.CRASH && exit != Exit.NORMAL) {
        throw new IllegalArgumentException("a host reports CRASH or NORMAL, not " + exit);
      }
    }

    @Override
    public PoolEvent toEvent(long now) {
      return new PoolEvent.WorkerStopped(worker, incarnation, exit, cause, now);
    }
  }

  /** One message from a host: what one of its turns produced, in the order it happened. */
  record Batch(String host, List<HostReport> items) {
    public Batch {
      Objects.requireNonNull(host, "host");
      items = List.copyOf(items);
    }
  }
}
