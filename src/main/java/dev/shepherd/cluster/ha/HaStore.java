package dev.shepherd.cluster.ha;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.core.ReadOnly;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The replicated, fenced store of highly available pools (A2, A3 in docs/rules.md): one entry per
 * pool in the {@value #MAP} map, which {@code conf/cluster.xml} gives a synchronous backup and
 * majority split-brain protection, so that a member on the minority side of a split can neither
 * claim nor write. Every change is an entry processor, atomic per key: a claim takes the pool's
 * leader lock and the next term and reads the log in one step; a write appends a batch only under
 * the current term, so a deposed leader's late writes fail.
 */
final class HaStore {
  /** The map of the pools' entries. */
  static final String MAP = "shepherd.ha";
  /** The member attribute holding a member's Vert.x node id (vertx-hazelcast's). */
  static final String NODE_ID = "__vertx.nodeId";

  private final IMap<String, HaEntry> map;

  HaStore(HazelcastInstance hazelcast) {
    this.map = hazelcast.getMap(MAP);
  }

  /**
   * Claims the next term of {@code pool} for {@code node}, unless another node of {@code
   * members} holds the lock: the claim (with the log to recover from), or a refusal naming that
   * node.
   */
  CompletionStage<HaEntry.Claimed> claim(String pool, String node, Set<String> members) {
    return claim(pool, node, members, null);
  }

  /**
   * A claim by a standby that followed the log up to {@code followed} (null: not at all): won, it
   * hands over only the log after that position when the base is still the one it read there.
   */
  CompletionStage<HaEntry.Claimed> claim(String pool, String node, Set<String> members,
      HaEntry.Position followed) {
    return direct(map.submitToKey(pool, new Claim(node, members, followed)));
  }

  /** What a standby following the log reads of it ({@link HaEntry#read}); nothing changes. */
  CompletionStage<HaEntry.Read> follow(String pool, HaEntry.Position from, long wantTerm,
      long wantId, boolean always) {
    return direct(map.submitToKey(pool, new Follow(from, wantTerm, wantId, always)));
  }

  /**
   * Keeps batch {@code id} of {@code term} ({@code base} non-null: a checkpoint, which replaces
   * the log before it) if {@code term} is still the pool's: whether it was. The texts are UTF-8;
   * writes may be in flight together and arrive in any order ({@link HaEntry}).
   */
  CompletionStage<Boolean> write(String pool, long term, long id, byte[] batch, byte[] base) {
    return direct(map.submitToKey(pool, new Write(term, id, batch, base)));
  }

  /** Releases the lock of {@code pool} if {@code node} holds it in {@code term}. */
  CompletionStage<Boolean> resign(String pool, String node, long term) {
    return direct(map.submitToKey(pool, new Resign(node, term)));
  }

  /**
   * {@code stage}, whose callbacks run on the thread that completes it (Hazelcast's response or
   * partition thread; they only hand over to a Vert.x context). Hazelcast runs a callback added
   * with {@code whenComplete} on its default executor, which is a new thread per callback when
   * the common fork-join pool has one thread (any machine of two cores or fewer): a thread
   * started for every write of an HA leader (docs/benchmarks.md, HA section).
   */
  static <T> CompletionStage<T> direct(CompletionStage<T> stage) {
    CompletableFuture<T> done = new CompletableFuture<>();
    stage.whenCompleteAsync((value, error) -> {
      if (error != null) {
        done.completeExceptionally(error);
      } else {
        done.complete(value);
      }
    }, Runnable::run);
    return done;
  }

  /**
   * A2 (docs/rules.md): the lock and the next term, with the log, in one atomic step. Whether
   * the lock's holder is still a member is read where and when the claim runs, on the key's
   * owner (its node ids), not from the claimer's {@code members} as they were when it sent the
   * claim: a claim sent just before the leader's member was removed, and held back until the
   * partition had a new owner, then wins instead of being refused with a stale view and sent
   * again (A3: a takeover a claim's round trip sooner). {@code members} stand in where no
   * member runs it (a test).
   */
  static final class Claim implements EntryProcessor<String, HaEntry, HaEntry.Claimed>,
      HazelcastInstanceAware {
    private static final long serialVersionUID = 1L;
    private final String node;
    private final Set<String> members;
    private final HaEntry.Position followed;
    private transient HazelcastInstance hazelcast;
    /** What this claim did where it ran, for the key's backups; null when it changed nothing. */
    private transient ClaimBackup applied;

    Claim(String node, Set<String> members) {
      this(node, members, null);
    }

    Claim(String node, Set<String> members, HaEntry.Position followed) {
      this.node = node;
      this.members = Set.copyOf(members);
      this.followed = followed;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcast) {
      this.hazelcast = hazelcast;
    }

    /** The node ids of the cluster's members as the member running the claim sees them. */
    private Set<String> live() {
      if (hazelcast == null) {
        return members;
      }
      Set<String> nodes = new HashSet<>();
      for (Member member : hazelcast.getCluster().getMembers()) {
        nodes.add(member.getAttribute(NODE_ID));
      }
      return nodes;
    }

    @Override
    public HaEntry.Claimed process(Map.Entry<String, HaEntry> entry) {
      HaEntry value = entry.getValue() == null ? new HaEntry() : entry.getValue();
      if (value.leader != null && !value.leader.equals(node) && live().contains(value.leader)) {
        applied = null;
        return HaEntry.Claimed.refused(value.leader);
      }
      value.claim(node, value.term + 1);
      entry.setValue(value);
      applied = new ClaimBackup(node, value.term);
      if (followed != null && followed.on(value)) {
        return new HaEntry.Claimed(value.term, value.writtenBy, null, value.logAfter(followed),
            null, true);
      }
      return new HaEntry.Claimed(value.term, value.writtenBy, value.base, value.log());
    }

    /**
     * What the key's backups apply: the term and leader this claim set where it ran, not the
     * claim run again. Run again, it would judge the old leader by the backup member's own view of
     * the cluster, which may not have lost that member yet: the backup would keep the old term,
     * and a later owner promoted from it would hand the same term to a second leader.
     */
    @Override
    public EntryProcessor<String, HaEntry, HaEntry.Claimed> getBackupProcessor() {
      return applied;
    }
  }

  /** A granted claim's term and leader, as the key's backups apply it. */
  record ClaimBackup(String node, long term)
      implements EntryProcessor<String, HaEntry, HaEntry.Claimed> {
    @Override
    public HaEntry.Claimed process(Map.Entry<String, HaEntry> entry) {
      HaEntry value = entry.getValue() == null ? new HaEntry() : entry.getValue();
      value.claim(node, term);
      entry.setValue(value);
      return null;
    }
  }

  /**
   * A3 (docs/rules.md): one batch (or a checkpoint), only under the current term. The texts
   * travel, and are kept ({@link HaEntry}), as UTF-8 bytes. Each write crosses the cluster twice
   * (to the key's owner, and from it to the backup), so it is a Hazelcast {@link DataSerializable}:
   * two longs and two byte arrays, with no Java serialization stream and class descriptors, which
   * took half the key owner's partition thread (docs/benchmarks.md, HA section).
   */
  static final class Write implements EntryProcessor<String, HaEntry, Boolean>, DataSerializable {
    private long term;
    private long id;
    private byte[] batch;
    private byte[] base;

    /** For Hazelcast, which reads the fields in {@link #readData}. */
    private Write() {}

    Write(long term, long id, byte[] batch, byte[] base) {
      this.term = term;
      this.id = id;
      this.batch = batch;
      this.base = base;
    }

    @Override
    public Boolean process(Map.Entry<String, HaEntry> entry) {
      HaEntry value = entry.getValue();
      if (value == null || value.term != term) {
        return false;
      }
      value.keep(term, id, batch, base);
      value.writtenBy = term;
      entry.setValue(value);
      return true;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
      out.writeLong(term);
      out.writeLong(id);
      out.writeByteArray(batch);
      out.writeByteArray(base);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
      term = in.readLong();
      id = in.readLong();
      batch = in.readByteArray();
      base = in.readByteArray();
    }
  }

  /**
   * A standby's reading of the log as it follows it ({@link HaEntry#read}): read-only, so it
   * runs on the key's owner alone and changes nothing.
   */
  record Follow(HaEntry.Position from, long wantTerm, long wantId, boolean always)
      implements EntryProcessor<String, HaEntry, HaEntry.Read>, ReadOnly {
    @Override
    public HaEntry.Read process(Map.Entry<String, HaEntry> entry) {
      HaEntry value = entry.getValue() == null ? new HaEntry() : entry.getValue();
      return value.read(from, wantTerm, wantId, always);
    }

    @Override
    public EntryProcessor<String, HaEntry, HaEntry.Read> getBackupProcessor() {
      return null;
    }
  }

  /** Gives the lock back after a step-down, so a standby need not wait for this node to leave. */
  record Resign(String node, long term) implements EntryProcessor<String, HaEntry, Boolean> {
    @Override
    public Boolean process(Map.Entry<String, HaEntry> entry) {
      HaEntry value = entry.getValue();
      if (value == null || value.term != term || !node.equals(value.leader)) {
        return false;
      }
      value.leader = null;
      entry.setValue(value);
      return true;
    }
  }
}
