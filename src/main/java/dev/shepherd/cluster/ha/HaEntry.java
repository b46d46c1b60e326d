package dev.shepherd.cluster.ha;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What the cluster keeps of one highly available pool (A2, A3 in docs/rules.md), the value of its
 * entry in the {@value HaStore#MAP} map: the current term and the node leading it (the pool's
 * leader lock: held while that node is a member), the term that wrote last, the base (the last
 * checkpoint, as JSON, with the term and batch id it came from) and the batches written since
 * (JSON each, with their term and id). The JSON is kept as the UTF-8 bytes the leader sent:
 * Java serialization, which Hazelcast uses for this entry when it copies a replica to a new
 * backup and for a claim's answer, copies a byte array at once but writes and reads a string
 * char by char, which takes hundreds of milliseconds for the megabytes of a large pool on a JVM
 * not yet warmed up, as a standby that just started is. Changed only by the entry processors of {@link HaStore},
 * atomically on the key's owner and its synchronous backup.
 *
 * <p>A leader keeps several writes in flight, and Hazelcast may run them out of order (an
 * operation retried during a partition migration): so batches are kept in (term, id) order
 * whatever order they arrive in, and the log a claim reads is only the unbroken run after the
 * base, batch {@code id + 1} of the base's term, then {@code id + 2}, and so on. A batch after a
 * gap (its predecessor failed, or never came) was never committed by its leader, which let
 * nothing out after it, so it is not part of the log.
 *
 * <p>A leader that took over goes on with the log its claim read: after the base term's run come
 * the runs of the later terms, each from its batch 1. A claim drops the batches its log left out
 * ({@link #claim}), so the next term's run follows exactly what its leader recovered from.
 */
final class HaEntry implements Serializable {
  private static final long serialVersionUID = 3L;

  long term;
  String leader;
  long writtenBy;
  byte[] base;
  /** The term and batch id of the checkpoint {@link #base} is (0, 0: none). */
  long baseTerm;
  long baseId;
  /** Batches after the base, in (term, id) order. */
  ArrayList<Stored> batches = new ArrayList<>();

  /** One batch as written: its term, its id within the term, its JSON (UTF-8). */
  record Stored(long term, long id, byte[] text) implements Serializable {}

  /**
   * Where a standby that follows the log stands (null: nowhere yet): the base it read, (term,
   * id) of that checkpoint, and the last batch of the log it read after it.
   */
  record Position(long baseTerm, long baseId, long term, long id) implements Serializable {
    /** Whether the log still has the base this position was read from. */
    boolean on(HaEntry entry) {
      return baseTerm == entry.baseTerm && baseId == entry.baseId;
    }
  }

  /**
   * What a claim hands the new leader (a copy); or, when another live member holds the pool's
   * lock, only that member's node id ({@code heldBy}, null for a claim won). {@code tail}: the
   * claimer followed the log up to the position it sent, and {@code batches} are only what
   * follows it (no base); otherwise the whole log.
   */
  record Claimed(long term, long previousTerm, byte[] base, List<byte[]> batches, String heldBy,
      boolean tail) implements Serializable {
    Claimed(long term, long previousTerm, byte[] base, List<byte[]> batches) {
      this(term, previousTerm, base, batches, null, false);
    }

    /** A claim refused: {@code leader} holds the lock. */
    static Claimed refused(String leader) {
      return new Claimed(0, 0, null, List.of(), leader, false);
    }

    boolean won() {
      return heldBy == null;
    }

    /** The size of the log handed over: its base and batches, in bytes. */
    long bytes() {
      long bytes = base == null ? 0 : base.length;
      for (byte[] batch : batches) {
        bytes += batch.length;
      }
      return bytes;
    }
  }

  /**
   * Keeps batch {@code id} of {@code term} ({@code checkpoint} non-null: the pool's whole state
   * as of it, which replaces the base and every batch up to it). A batch or checkpoint at or
   * before the base is covered by it already and changes nothing.
   */
  void keep(long term, long id, byte[] text, byte[] checkpoint) {
    if (!after(term, id, baseTerm, baseId)) {
      return;
    }
    if (checkpoint != null) {
      base = checkpoint;
      baseTerm = term;
      baseId = id;
      batches.removeIf(b -> !after(b.term(), b.id(), term, id));
      return;
    }
    int at = batches.size();
    while (at > 0 && after(batches.get(at - 1).term(), batches.get(at - 1).id(), term, id)) {
      at--;
    }
    if (at > 0 && batches.get(at - 1).term() == term && batches.get(at - 1).id() == id) {
      return;
    }
    batches.add(at, new Stored(term, id, text));
  }

  /**
   * What a standby following the log reads ({@link HaStore.Follow}): the base's place, the base
   * itself (null when not sent), the batches of the log's run it asked for, each with its term
   * and id, and the term that wrote last.
   */
  record Read(long baseTerm, long baseId, byte[] base, List<Stored> batches, long writtenBy,
      boolean whole) implements Serializable {}

  /**
   * The log as a follower at {@code from} reads it: when {@code from} is on the current base,
   * the batches of the run after it; otherwise the whole log if its base is ({@code wantTerm},
   * {@code wantId}) or {@code always}, or only where the base now is.
   */
  Read read(Position from, long wantTerm, long wantId, boolean always) {
    if (from != null && from.on(this)) {
      return new Read(baseTerm, baseId, null, runAfter(from), writtenBy, false);
    }
    if (always || (wantTerm == baseTerm && wantId == baseId)) {
      return new Read(baseTerm, baseId, base, run(), writtenBy, true);
    }
    return new Read(baseTerm, baseId, null, List.of(), writtenBy, false);
  }

  /** The texts of the run after {@code from}, which must be on the current base. */
  List<byte[]> logAfter(Position from) {
    return texts(runAfter(from));
  }

  /**
   * {@code node} leads the next term: the lock and the term move, and the batches the log leaves
   * out (after a gap) are dropped, so the new term's batches follow the log read now. What a
   * claim and its backups apply alike.
   */
  void claim(String node, long newTerm) {
    term = newTerm;
    leader = node;
    batches = new ArrayList<>(run());
  }

  /**
   * The log a successor recovers from: the batches that follow the base without a gap, the base
   * term's from the base on, each later term's from its batch 1.
   */
  List<byte[]> log() {
    return texts(run());
  }

  /** The texts of {@code batches}, in order. */
  static List<byte[]> texts(List<Stored> batches) {
    List<byte[]> texts = new ArrayList<>(batches.size());
    for (Stored b : batches) {
      texts.add(b.text());
    }
    return texts;
  }

  /** The batches of the run after {@code from}'s last one. */
  private List<Stored> runAfter(Position from) {
    List<Stored> after = new ArrayList<>();
    for (Stored b : run()) {
      if (after(b.term(), b.id(), from.term(), from.id())) {
        after.add(b);
      }
    }
    return after;
  }

  private List<Stored> run() {
    List<Stored> run = new ArrayList<>();
    long runTerm = baseTerm;
    long id = baseId;
    for (Stored b : batches) {
      if (b.term() == runTerm && b.id() == id + 1) {
        id++;
      } else if (b.term() > runTerm && b.id() == 1) {
        runTerm = b.term();
        id = 1;
      } else if (b.term() == runTerm) {
        continue;
      } else {
        break;
      }
      run.add(b);
    }
    return run;
  }

  private static boolean after(long term, long id, long otherTerm, long otherId) {
    return term > otherTerm || (term == otherTerm && id > otherId);
  }
}
