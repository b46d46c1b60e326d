package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * What a durable pool's coordinator leaves behind for the next one (A3): every accepted,
 * unanswered job with its place (queued at {@code order}, or running on {@code worker}), every
 * key binding, every worker host with its slots, and the highest generated job number accepted.
 * {@code term} is the term of the pool that wrote it. A {@link Ledger} builds one from records;
 * {@link Pool#durableImage()} computes one from a pool's state; {@link PoolEvent.Recover} rebuilds
 * a pool from one. Jobs are in backlog order, bindings by key, hosts in registration order.
 */
public record DurableImage(long term, long generated, List<JobImage> jobs,
    List<BindingImage> bindings, List<HostImage> hosts) {

  public DurableImage {
    jobs = List.copyOf(jobs);
    bindings = List.copyOf(bindings);
    hosts = List.copyOf(hosts);
  }

  /** Nothing survived (yet): the image of a durable pool that never accepted anything. */
  public static DurableImage empty(long term) {
    return new DurableImage(term, 0, List.of(), List.of(), List.of());
  }

  /**
   * One job: the fields of its submit, its backlog position, its dispatches so far, the slot it
   * runs on (null while queued), and the interruption it carries (null if never interrupted).
   */
  public record JobImage(String job, long generated, long order, Object payload, String key,
      Object replyTo, long timeoutMs, long bytes, String target, int attempts, String worker,
      Interruption interruption) {
    public JobImage {
      Objects.requireNonNull(job, "job");
    }
  }

  /** One key's binding; {@code rebalanced} when an operator set it. */
  public record BindingImage(String key, String worker, boolean rebalanced) {
    public BindingImage {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(worker, "worker");
    }
  }

  /** One worker host: the node it last registered from and its slots in slot order. */
  public record HostImage(String host, String node, List<String> slots) {
    public HostImage {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(node, "node");
      slots = List.copyOf(slots);
    }
  }
}
