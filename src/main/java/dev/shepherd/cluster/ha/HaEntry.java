package dev.shepherd.cluster.ha;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What the cluster keeps of one highly available pool (A2, A3 in docs/rules.md), the value of its
 * entry in the {@value HaStore#MAP} map: the current term and the node leading it (the pool's
 * leader lock: held while that node is a member), the term that wrote last, the base (the last
 * checkpoint, as JSON) and the batches written since (JSON each). Changed only by the entry
 * processors of {@link HaStore}, atomically on the key's owner and its synchronous backup.
 */
final class HaEntry implements Serializable {
  private static final long serialVersionUID = 1L;

  long term;
  String leader;
  long writtenBy;
  String base;
  ArrayList<String> batches = new ArrayList<>();

  /** What a claim hands the new leader (a copy). */
  record Claimed(long term, long previousTerm, String base, List<String> batches)
      implements Serializable {}
}
