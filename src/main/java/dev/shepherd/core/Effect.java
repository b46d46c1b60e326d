package dev.shepherd.core;

import java.util.Objects;

/**
 * What the runtime must do after a transition, in order. Effects are plain records so a test can
 * compare a transition's output by equality; the runtime's interpreter is the only code that
 * turns them into messages, deployments and timers.
 */
public sealed interface Effect {

  /** Send {@code outcome} to the submitter identified by {@code replyTo}. */
  record Respond(Object replyTo, Outcome outcome) implements Effect {
    public Respond {
      Objects.requireNonNull(outcome, "outcome");
    }
  }

  /**
   * Hand one job to one slot, fenced by {@code assignment}; {@code attempt} counts from 1. {@code
   * checkpoint} is the last progress an earlier attempt reported (T2 in docs/rules.md), or null.
   */
  record Assign(String worker, long assignment, String job, Object payload, int attempt,
      String key, Object checkpoint) implements Effect {

    /** An assignment without a checkpoint. */
    public Assign(String worker, long assignment, String job, Object payload, int attempt,
        String key) {
      this(worker, assignment, job, payload, attempt, key, null);
    }
  }

  /**
   * T2 (docs/rules.md): attempt {@code attempt} of job {@code job}, running on {@code worker} as
   * assignment {@code assignment}, reported {@code progress}: publish it on the events address and
   * tell the submitter ({@code replyTo}, as with {@link Respond}) with a message that is not an
   * answer. {@code bytes} is what the report costs as the runtime measured it.
   */
  record Progress(Object replyTo, String job, String worker, long assignment, int attempt,
      Object progress, long bytes) implements Effect {
    public Progress {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(progress, "progress");
    }
  }

  /** Deploy incarnation {@code incarnation} of the slot (the first or a replacement). */
  record Deploy(String worker, int incarnation) implements Effect {}

  /** Undeploy incarnation {@code incarnation} of the slot if it is still deployed. */
  record Stop(String worker, int incarnation, Exit reason) implements Effect {}

  /** Keep {@code timer}: apply {@link PoolEvent.TimerFired} with it at or after {@code at}. */
  record StartTimer(Timer timer, long at) implements Effect {}

  /** Forget {@code timer}: it no longer applies (a fire would be ignored anyway). */
  record CancelTimer(Timer timer) implements Effect {}

  /**
   * P17 (docs/rules.md): the job of assignment {@code assignment} was cancelled while running; tell
   * its incarnation, so a handler that looks can stop early. Its completion is still awaited.
   */
  record CancelRunning(String worker, long assignment, String job) implements Effect {}

  /**
   * A durable pool (HA) changed what must survive its coordinator: the runtime writes {@code
   * record} to its replicated store, in order, and releases the effects that follow it (answers,
   * assignments) only once the store has it (A3 in docs/rules.md).
   */
  record Persist(DurableRecord record) implements Effect {
    public Persist {
      Objects.requireNonNull(record, "record");
    }
  }

  /** Tell observers (live view, metrics, logs) that something noteworthy happened. */
  record Publish(Notice notice) implements Effect {}
}
