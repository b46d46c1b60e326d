package dev.shepherd.runtime;

/**
 * How a {@link PoolClient} reaches its pool: the pool's address prefix (null for {@code
 * shepherd.<pool>}), how long a submit waits for its terminal outcome, where the outcome is sent
 * ({@link Replies}), and how long a call on a clustered Vert.x waits for a coordinator when none
 * consumes the pool's address ({@code leaderWaitMs}: a failover of a highly available pool).
 *
 * <pre>{@code
 * PoolClient jobs = PoolClient.create(vertx, "jobs",
 *     PoolClientOptions.defaults().withTimeoutMs(30_000));
 * }</pre>
 */
public record PoolClientOptions(String addressPrefix, long timeoutMs, Replies replies,
    long leaderWaitMs) {

  /**
   * Where a submit over the bus is answered. A submit to a pool coordinated in the client's own
   * Vert.x instance is handed straight over (no bus at all) except under {@link #REPLY_ADDRESS}.
   */
  public enum Replies {
    /** {@link #REPLY_ADDRESS} on a clustered Vert.x, {@link #REQUEST_REPLY} otherwise. */
    AUTO,
    /**
     * The reply to the submit request is the terminal outcome (section 6 (docs/rules.md) without
     * {@code replyTo}). A request held by a coordinator that dies ends only by the client's
     * timeout.
     */
    REQUEST_REPLY,
    /**
     * Every submit (even to a pool in this instance) goes over the bus with the client's own
     * {@code replyTo} address: the reply is the admission and the terminal outcome comes to that
     * address, from whichever coordinator is active by then, so the future survives a failover
     * (rule A4 in docs/rules.md).
     */
    REPLY_ADDRESS
  }

  public PoolClientOptions {
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException("timeoutMs: must be positive (was " + timeoutMs + ")");
    }
    if (replies == null) {
      throw new IllegalArgumentException("replies: is required");
    }
    if (leaderWaitMs < 0) {
      throw new IllegalArgumentException("leaderWaitMs: must be 0 or more (was " + leaderWaitMs
          + ")");
    }
  }

  /** Options with the default {@link #leaderWaitMs()}. */
  public PoolClientOptions(String addressPrefix, long timeoutMs, Replies replies) {
    this(addressPrefix, timeoutMs, replies, PoolClient.DEFAULT_LEADER_WAIT_MS);
  }

  /**
   * The pool's default prefix, {@link PoolClient#DEFAULT_REQUEST_TIMEOUT_MS}, {@link
   * Replies#AUTO} and {@link PoolClient#DEFAULT_LEADER_WAIT_MS}.
   */
  public static PoolClientOptions defaults() {
    return new PoolClientOptions(null, PoolClient.DEFAULT_REQUEST_TIMEOUT_MS, Replies.AUTO);
  }

  public PoolClientOptions withAddressPrefix(String prefix) {
    return new PoolClientOptions(prefix, timeoutMs, replies, leaderWaitMs);
  }

  /**
   * How long a submit waits, from the call to its terminal outcome (queueing and running
   * included); then its future fails with a {@link io.vertx.core.eventbus.ReplyException} of
   * failure type {@code TIMEOUT} (through a reply address: within an eighth of the timeout, at
   * most a second, after it). Status, cancel and the other control calls keep their own.
   */
  public PoolClientOptions withTimeoutMs(long timeout) {
    return new PoolClientOptions(addressPrefix, timeout, replies, leaderWaitMs);
  }

  public PoolClientOptions withReplies(Replies mode) {
    return new PoolClientOptions(addressPrefix, timeoutMs, mode, leaderWaitMs);
  }

  /**
   * On a clustered Vert.x, how long a submit, cancel, rebalance or revive is sent again while no
   * coordinator consumes the pool's address, as during the second or so in which a highly
   * available pool has no leader; it then fails with {@code NO_HANDLERS}, as it does at once on
   * a Vert.x that is not clustered or with 0. A pool that does not exist at all is therefore
   * reported only after this wait. A status is never waited for.
   */
  public PoolClientOptions withLeaderWaitMs(long wait) {
    return new PoolClientOptions(addressPrefix, timeoutMs, replies, wait);
  }
}
