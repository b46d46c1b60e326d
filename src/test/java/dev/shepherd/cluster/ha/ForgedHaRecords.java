package dev.shepherd.cluster.ha;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import dev.shepherd.cluster.trust.ClusterKeys;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * What a rogue member of the Hazelcast cluster can do to a highly available pool's log in the
 * {@value HaStore#MAP} map: append records of its own after the leader's, as an entry processor
 * run on the map's owner (any member may). Two forgeries of an {@code accepted} record for job
 * {@code job} with {@code replyTo}: one in clear (a member with no key), one sealed with
 * another key at the entry's current term, as if the leader wrote it.
 */
public final class ForgedHaRecords {
  private ForgedHaRecords() {}

  private static byte[] utf8(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The text of a batch accepting {@code job}, answered at {@code replyTo}. */
  static String batch(long id, String job, String replyTo) {
    return new JsonObject().put("id", id).put("records", new JsonArray().add(new JsonObject()
            .put("t", "accepted").put("job", job).put("replyTo", replyTo)
            .put("payload", new JsonObject().put("echo", "forged"))))
        .put("delivered", new JsonArray()).put("undelivered", new JsonArray()).encode();
  }

  /**
   * Appends to {@code pool}'s log a batch in clear for {@code jobs[0]} and one sealed with
   * {@code otherKey} (base64 of 32 bytes) for {@code jobs[1]}; answers the term they claim.
   */
  public static long append(HazelcastInstance hazelcast, String pool, String otherKey,
      String replyTo, String... jobs) {
    return hazelcast.<String, HaEntry>getMap(HaStore.MAP)
        .executeOnKey(pool, new Append(pool, otherKey, replyTo, List.of(jobs)));
  }

  /**
   * Runs on the entry's owner: two batches right after the last one stored, in its term, so that
   * a successor reads them (a batch after a gap is never read at all), whether it reads the whole
   * log at its claim or followed it until then.
   */
  record Append(String pool, String otherKey, String replyTo, List<String> jobs)
      implements EntryProcessor<String, HaEntry, Long> {
    @Override
    public Long process(Map.Entry<String, HaEntry> entry) {
      HaEntry value = entry.getValue();
      long term = value.baseTerm;
      long last = value.baseId;
      for (HaEntry.Stored b : value.batches) {
        if (b.term() > term || (b.term() == term && b.id() > last)) {
          term = b.term();
          last = b.id();
        }
      }
      value.keep(term, last + 1, utf8(batch(last + 1, jobs.get(0), replyTo)), null);
      SealedRecords other = new SealedRecords(pool,
          ClusterKeys.fromEnvironment(Map.of(ClusterKeys.KEY, otherKey)));
      value.keep(term, last + 2, utf8(other.seal(SealedRecords.BATCH, term, last + 2,
          batch(last + 2, jobs.get(1), replyTo))), null);
      entry.setValue(value);
      return value.term;
    }
  }
}
