package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * One change of what must survive a durable pool's coordinator (HA, A3), emitted as {@link
 * Effect.Persist} in the transition that makes it. Replayed in order by a {@link Ledger}, a pool's
 * records rebuild exactly its {@link DurableImage}: the accepted, unanswered jobs (where each is,
 * with its attempts), the key bindings and the worker hosts. A record names slots, jobs and keys
 * by id only, so it outlives the pool that wrote it.
 */
public sealed interface DurableRecord {

  /**
   * A job was accepted at backlog position {@code order}; {@code generated} is the {@code N} of a
   * generated id {@code job-N} (0 for a caller's id), {@code target} its affinity slot or null.
   */
  record Accepted(String job, long generated, long order, Object payload, String key,
      Object replyTo, long timeoutMs, long bytes, String target) implements DurableRecord {
    public Accepted {
      Objects.requireNonNull(job, "job");
    }
  }

  /** The job was dispatched to {@code worker}; {@code attempt} counts its dispatches from 1. */
  record Assigned(String job, String worker, int attempt) implements DurableRecord {
    public Assigned {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** An interrupted job went back into the backlog at {@code order}, carrying why (P9). */
  record Requeued(String job, long order, Interruption interruption) implements DurableRecord {
    public Requeued {
      Objects.requireNonNull(job, "job");
    }
  }

  /**
   * The job was answered terminally (a cancel included): it leaves the image. The outcome and
   * where it went ride along, so a runtime that lost the answer on its way can send it again.
   */
  record Answered(String job, Object replyTo, Outcome outcome) implements DurableRecord {
    public Answered {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(outcome, "outcome");
    }
  }

  /** {@code key} is bound to {@code worker}: by the selector, or by a rebalance (P4, P5). */
  record Bound(String key, String worker, boolean rebalanced) implements DurableRecord {
    public Bound {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** The idle binding of {@code key} was forgotten (see {@link PoolLimits}). */
  record Unbound(String key) implements DurableRecord {
    public Unbound {
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * A worker host registered from {@code node}; {@code slots} are every slot the pool has had
   * from it, in slot order.
   */
  record HostKnown(String host, String node, List<String> slots) implements DurableRecord {
    public HostKnown {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(node, "node");
      slots = List.copyOf(slots);
    }
  }
}
