package dev.shepherd.runtime.access;

import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.wire.RequestDecoder;
import io.vertx.core.json.JsonObject;

/**
 * What a clustered coordinator tells every node about its pool (section 8.4 in docs/rules.md),
 * published on {@value #ADDRESS}: {@code {"pool", "prefix", "node", "everyMs"}} about once every
 * {@code everyMs} while the pool runs or drains, and {@code {"pool", "prefix", "node", "gone":
 * true}} once when it has stopped; both with {@code "ha": true} when the pool is highly available
 * (its coordinator may move to another node, so a pool that goes is waited for a while). A node
 * that starts publishes {@code {}} on {@value #QUERY}, and every coordinator then announces its
 * pool at once. Nodes keep a directory of the cluster's pools from these, forgetting a pool when it
 * is gone, when its node leaves the cluster, or after {@link #SILENCES} announcements in a row did
 * not come.
 *
 * @param node the coordinator's Vert.x node id
 * @param everyMs how often the coordinator announces (0 in a {@code gone} announcement)
 * @param ha whether the pool is highly available (A1)
 */
public record PoolAnnouncement(String pool, String prefix, String node, long everyMs,
    boolean gone, boolean ha) {
  /** Where coordinators announce their pools. */
  public static final String ADDRESS = "__shepherd.pools.announce";
  /** Where a node asks every coordinator to announce its pool now. */
  public static final String QUERY = "__shepherd.pools.query";
  /** How often a coordinator announces its pool. */
  public static final long EVERY_MS = 1_000;
  /** How many announcements in a row may be missed before a pool is forgotten. */
  public static final int SILENCES = 4;

  /** An announcement of a pool that is not highly available. */
  public PoolAnnouncement(String pool, String prefix, String node, long everyMs, boolean gone) {
    this(pool, prefix, node, everyMs, gone, false);
  }

  /** How long after this announcement its pool is forgotten unless another arrives. */
  public long silenceLimitMs() {
    return SILENCES * Math.max(everyMs, 1);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("pool", pool).put("prefix", prefix).put("node", node);
    if (ha) {
      json.put("ha", true);
    }
    return gone ? json.put("gone", true) : json.put("everyMs", everyMs);
  }

  /** Reads an announcement; a {@link BadRequest} naming the field when it is not one. */
  public static PoolAnnouncement decode(Object body) {
    JsonObject json = RequestDecoder.object(body);
    String pool = text(json, "pool");
    String prefix = text(json, "prefix");
    String node = text(json, "node");
    Object gone = json.getValue("gone", false);
    if (!(gone instanceof Boolean isGone)) {
      throw new BadRequest("gone: must be true or false");
    }
    Object every = json.getValue("everyMs", isGone ? 0 : null);
    if (!(every instanceof Integer || every instanceof Long) || ((Number) every).longValue() < 0
        || ((Number) every).longValue() > 3_600_000) {
      throw new BadRequest("everyMs: must be a whole number of milliseconds up to an hour");
    }
    Object ha = json.getValue("ha", false);
    if (!(ha instanceof Boolean isHa)) {
      throw new BadRequest("ha: must be true or false");
    }
    return new PoolAnnouncement(pool, prefix, node, ((Number) every).longValue(), isGone, isHa);
  }

  private static String text(JsonObject json, String field) {
    Object value = json.getValue(field);
    if (!(value instanceof String text) || text.isEmpty() || text.length() > 256) {
      throw new BadRequest(field + ": must be a string of 1 to 256 characters");
    }
    return text;
  }
}
