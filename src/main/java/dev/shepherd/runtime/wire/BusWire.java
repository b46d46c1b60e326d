package dev.shepherd.runtime.wire;

import dev.shepherd.runtime.access.BusEndpoints;
import dev.shepherd.runtime.access.BusPoolHandle;

/**
 * The wire names of a pool's event-bus protocol v1, requests and their answers (section 6 in
 * docs/rules.md; {@code docs/protocol.md} is the contract): one place for the decoder ({@link
 * RequestDecoder}), the endpoints ({@link BusEndpoints}) and the client over the bus ({@link
 * BusPoolHandle}), so both sides name a field alike. Outcomes have theirs in {@link OutcomeJson},
 * a job's error in {@link JobErrorJson}.
 */
public final class BusWire {
  /** A job's id, in every request and answer about one job. */
  public static final String JOB = "job";
  /** What a submit asks the worker to do, any JSON value. */
  public static final String PAYLOAD = "payload";
  /** The affinity key of a submit. */
  public static final String KEY = "key";
  /** A submit's job timeout, or how long a lookup waits for an outcome. */
  public static final String TIMEOUT_MS = "timeoutMs";
  /** Where a submit's outcome is sent, when not in the reply. */
  public static final String REPLY_TO = "replyTo";
  /** How long a submit waits before it may run. */
  public static final String DELAY_MS = "delayMs";
  /** T2 (docs/rules.md): a submit's own progress timeout. */
  public static final String PROGRESS_TIMEOUT_MS = "progressTimeoutMs";
  /** A submit's own retry of failures. */
  public static final String RETRY = "retry";
  /** A submit's group (F1 in docs/rules.md): a tenant, customer or downstream. */
  public static final String GROUP = "group";
  /** A submit's priority within its group (F3 in docs/rules.md), 0 first. */
  public static final String PRIORITY = "priority";
  /** A handler's answer that its downstream is rate limited for this long (F4 in docs/rules.md). */
  public static final String RATE_LIMITED_MS = "rateLimitedMs";
  /** A slot's id. */
  public static final String WORKER = "worker";
  public static final String INSTANCES = "instances";
  public static final String MAX_CONCURRENCY = "maxConcurrency";
  /** An assignment's token. */
  public static final String ASSIGNMENT = "assignment";
  /** A completion's result. */
  public static final String RESULT = "result";
  /** A completion's error ({@link JobErrorJson}). */
  public static final String ERROR = "error";
  /** Whether a lookup waits for the outcome. */
  public static final String WAIT = "wait";
  /** The first dead letter of a page. */
  public static final String OFFSET = "offset";
  /** How many dead letters a page holds at most. */
  public static final String LIMIT = "limit";
  /** Whether a cancel found the job. */
  public static final String CANCELLED = "cancelled";
  /** That a dead letter was discarded. */
  public static final String DISCARDED = "discarded";
  /** A revived slot's new incarnation. */
  public static final String INCARNATION = "incarnation";
  /** A lookup's view when its wait ended first. */
  public static final String WAITED = "waited";
  /** The worker host of a completion batch. */
  public static final String HOST = "host";
  /** The completions of a batch. */
  public static final String ITEMS = "items";

  private BusWire() {}
}
