package dev.shepherd.cluster.hosts;

import dev.shepherd.cluster.directory.PoolHosts;

/**
 * The wire names of the worker-host protocol ({@code docs/protocol.md}, "Worker hosts"): every
 * field of a registration, heartbeat, deregistration, command and report, and the values of
 * {@code op} and {@code fact}, in one place for the codec ({@link HostCodec}), the streaming
 * writer ({@link HostBatchWriter}) and the endpoints ({@link PoolHosts}), so they cannot drift.
 */
public final class HostWire {
  /**
   * The most commands, or reports, one batch message carries: a turn with more sends several,
   * in order. A batch of a whole window (256 jobs in ClusterBench) made the pool a convoy, each
   * JVM idle while the other worked on it; batches of 64 let the coordinator, the host and the
   * connections between them work at once (docs/benchmarks.md, "Cluster benchmarks").
   */
  public static final int MAX_BATCH_ITEMS = 64;

  // Fields.
  public static final String HOST = "host";
  static final String NODE = "node";
  static final String ADDRESS = "address";
  static final String SLOTS = "slots";
  static final String ID = "id";
  static final String MAX_CONCURRENCY = "maxConcurrency";
  static final String HEARTBEAT_MS = "heartbeatMs";
  static final String TERM = "term";
  static final String HEARTBEAT_TIMEOUT_MS = "heartbeatTimeoutMs";
  static final String ROUND = "round";
  public static final String ITEMS = "items";
  static final String OP = "op";
  static final String WORKER = "worker";
  static final String INCARNATION = "incarnation";
  static final String ASSIGNMENT = "assignment";
  static final String JOB = "job";
  static final String PAYLOAD = "payload";
  static final String ATTEMPT = "attempt";
  static final String KEY = "key";
  /** An assignment's W3C trace context (T1 in docs/rules.md), absent while tracing is off. */
  static final String TRACEPARENT = "traceparent";
  static final String TRACESTATE = "tracestate";
  static final String REASON = "reason";
  static final String RESULT = "result";
  /** A completion that is a handler's "rate limited for this many ms" (F4 in docs/rules.md). */
  static final String RATE_LIMITED_MS = "rateLimitedMs";
  static final String ERROR = "error";
  /** T2 (docs/rules.md): a report that is a job's progress, host to pool. */
  static final String PROGRESS = "progress";
  /** T2 (docs/rules.md): in an assignment, the last progress of an earlier attempt. */
  static final String CHECKPOINT = "checkpoint";
  /** In a completion: how long the job ran on the host, in nanoseconds (optional). */
  static final String RUN_NANOS = "runNanos";
  static final String FACT = "fact";
  static final String EXIT = "exit";
  static final String CAUSE = "cause";
  /** In the answer to a report batch sent as a request: how many of its items the pool refused. */
  public static final String STALE = "stale";
  // Values of op: what a command asks.
  static final String OP_ASSIGN = "assign";
  static final String OP_DEPLOY = "deploy";
  static final String OP_STOP = "stop";
  static final String OP_CANCEL = "cancel";
  static final String OP_REREGISTER = "reregister";
  // Values of fact: what a report says of an incarnation.
  static final String FACT_CREATED = "created";
  static final String FACT_FAILED = "failed";
  static final String FACT_STOPPED = "stopped";

  private HostWire() {}
}
