package dev.shepherd.runtime;

/**
 * One assignment as a worker sees it: the job's id and payload, which attempt this is (from 1),
 * its affinity key (or null), and the slot and incarnation running it.
 */
public record Job(
    String id, Object payload, int attempt, String key, String worker, int incarnation,
    long assignment) {

  /** The same assignment with {@code decoded} as its payload. */
  Job withPayload(Object decoded) {
    return new Job(id, decoded, attempt, key, worker, incarnation, assignment);
  }
}
