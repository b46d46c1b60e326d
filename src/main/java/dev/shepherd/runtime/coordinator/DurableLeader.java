package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Effect;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.Transition;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.ha.JournalTimes;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.trace.JobTrace;
import dev.shepherd.runtime.trace.JobTraces;
import dev.shepherd.runtime.wire.AddressResponder;
import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The coordinator of a highly available pool as the leader of one term (A2, A3 in docs/rules.md):
 * its effects pass a {@link DurableGate}, the effects of each event-loop turn reach it together
 * ({@link TurnBuffer}) and their records are written through the {@link Leadership} as one batch,
 * and a failed write makes it step down. It also recovers the pool from what the previous term
 * left, and renews its lease while idle. The lease runs on this node's monotonic clock (from the
 * claim, {@code claimedAt}, on the same clock); the journal carries wall times ({@link
 * JournalTimes}). Runs on the coordinator's context.
 */
public final class DurableLeader {
  /** How often an idle leader looks whether its lease needs renewing. */
  static final long RENEW_CHECK_MS = 250;

  private final Coordinator coordinator;
  private final long term;
  private final Leadership leadership;
  private final Consumer<String> onStepDown;
  private final DurableGate gate;
  /** The effects of this turn's transitions, offered to the gate together once it is over. */
  private final TurnBuffer<List<Effect>> turn;
  /** Answers let out and not yet written by the bus, which the gate reports once they are. */
  private final LeavingAnswers answers;
  private long renewTimer = -1;

  DurableLeader(Coordinator coordinator, long term, long claimedAt, long leaseMs,
      Leadership leadership, Consumer<String> onStepDown) {
    this.coordinator = coordinator;
    this.term = term;
    this.leadership = leadership;
    this.onStepDown = onStepDown;
    // The totals ride on every batch, so the next term's counters go on (T3 in docs/rules.md).
    this.gate = new DurableGate(leaseMs, claimedAt, coordinator.pool()::durableEntries,
        () -> coordinator.pool().counters(), leadership.writesInFlight(),
        new DurableGate.Output() {
          @Override
          public boolean release(Effect effect) {
            if (effect instanceof Effect.Respond respond && DurableGate.reported(respond)) {
              return answers.release(respond);
            }
            coordinator.release(effect);
            return true;
          }

          @Override
          public void write(DurableGate.Batch batch) {
            writeBatch(batch);
          }
        });
    this.turn = new TurnBuffer<>(coordinator.turns(), TurnBuffer.UNCAPPED, this::pass);
    this.answers = new LeavingAnswers(coordinator, this::left);
  }

  long term() {
    return term;
  }

  HaStatus status() {
    return leadership.status(term);
  }

  /** The effects of one transition; they leave once written, all of a turn in one batch. */
  void offer(List<Effect> effects) {
    turn.add(effects);
  }

  /** Offers a turn's effects in order, and lets out what may leave. */
  private void pass(List<List<Effect>> transitions) {
    for (int i = 0; i < transitions.size(); i++) {
      gate.offer(transitions.get(i));
    }
    gate.pump(coordinator.now());
  }

  /**
   * Answers the bus wrote since last time: the gate reports them in its next batch, after what
   * this turn offered so far (a checkpoint is the image of everything offered before it).
   */
  private void left(List<Effect.Respond> written) {
    if (gate.closed()) {
      return;
    }
    turn.flush();
    for (int i = 0; i < written.size(); i++) {
      gate.left(written.get(i));
    }
    gate.pump(coordinator.now());
  }

  private void writeBatch(DurableGate.Batch batch) {
    DurableLog.Base base = batch.checkpoint()
        ? DurableLog.checkpoint(coordinator.pool().durableImage(), batch) : null;
    long offset = coordinator.clock().wallOffsetMs();
    Future<Void> written = leadership.write(term, JournalTimes.toWall(batch, offset),
        JournalTimes.toWall(base, offset), traces(batch, base));
    written.onComplete(ar -> coordinator.execute(() -> {
      if (gate.closed()) {
        return;
      }
      // What this turn offered so far goes first, as it would had it reached the gate at once.
      turn.flush();
      if (ar.succeeded()) {
        gate.written(batch.id(), coordinator.now());
      } else {
        gate.failed(batch.id());
        onStepDown.accept("writing batch " + batch.id() + " of term " + term + " failed: "
            + ar.cause().getMessage());
      }
    }));
  }

  /**
   * Rebuilds the pool from {@code recovered}, right after it started: queued jobs in their order,
   * running ones interrupted {@code NODE_LOST}, waiting ones with their due times, bindings,
   * hosts, the dead-letter set, the recent outcomes and the counters (T3 in docs/rules.md), each
   * job's last journaled checkpoint (T2), handed to its next attempt; then
   * sends again the answers never reported delivered. A job's stored {@code replyTo} (an address, or none) becomes the
   * {@link AddressResponder} that answers it. The journal's wall times become this node's
   * monotonic ones ({@link JournalTimes}). A recovered job with a trace in {@code traces} (job id
   * to the submitter's trace the journal kept; T1 in docs/rules.md) goes on under it: its queued
   * span starts again at its original admission (the journaled wall time; now when the journal
   * has none), its attempts' spans are the submitter's children.
   */
  void recover(DurableLog.Recovered journaled, Map<String, JournalTrace> traces) {
    DurableLog.Recovered recovered =
        JournalTimes.toMonotonic(journaled, coordinator.clock().wallOffsetMs());
    // The first batch goes on with the log read, not a checkpoint: the first answers of a
    // takeover wait for the recovery's few records, not for the whole image to be written.
    gate.continueLog(recovered.records());
    JobTraces jobTraces = coordinator.traces();
    if (jobTraces != null && !traces.isEmpty()) {
      // Before the recovery's effects: a job dispatched or answered at once ends its queued span.
      for (DurableImage.JobImage j : recovered.image().jobs()) {
        JournalTrace trace = traces.get(j.job());
        if (trace != null) {
          jobTraces.recovered(j.job(),
              JobTrace.fromW3c(coordinator.name(), trace.traceparent(), trace.tracestate()),
              trace.admittedAt());
        }
      }
    }
    Sender bus = coordinator.sender();
    List<DurableImage.JobImage> jobs = new ArrayList<>();
    for (DurableImage.JobImage j : recovered.image().jobs()) {
      // T2: the checkpoint the last leader wrote goes to the job's retry here.
      jobs.add(j.withReplyTo(new AddressResponder(bus, (String) j.replyTo())));
    }
    DurableImage image = recovered.image();
    // Groups and pauses too (F1, F5 in docs/rules.md): a new leader enforces the same limits.
    Transition t = coordinator.apply(new PoolEvent.Recover(new DurableImage(image.term(),
        image.generated(), jobs, image.bindings(), image.hosts(), image.dead(), image.recent(),
        image.groups(), image.pausedSince(), image.size()), recovered.counters(),
        coordinator.now()));
    if (t instanceof Transition.Refused refused) {
      throw new IllegalStateException("pool " + coordinator.name() + " could not recover: "
          + refused.error().message());
    }
    List<DurableRecord.Answered> answers = new ArrayList<>();
    for (DurableRecord.Answered a : recovered.undelivered()) {
      answers.add(new DurableRecord.Answered(a.job(),
          new AddressResponder(bus, (String) a.replyTo()), a.outcome()));
    }
    // After the recovery's own effects, so a checkpoint while they wait keeps them as well.
    turn.add(DurableGate.resent(answers));
    turn.flush();
    renewTimer = coordinator.scheduler().every(RENEW_CHECK_MS, () -> {
      turn.flush();
      gate.renew(coordinator.now());
    });
  }

  /**
   * The submitters' traces of the jobs {@code batch} accepts, or {@code base} holds (T1 in
   * docs/rules.md), as the journal keeps them; empty while tracing is off.
   */
  private Map<String, JournalTrace> traces(DurableGate.Batch batch, DurableLog.Base base) {
    JobTraces jobTraces = coordinator.traces();
    if (jobTraces == null || jobTraces.size() == 0) {
      return Map.of();
    }
    Map<String, JournalTrace> traces = new HashMap<>();
    if (base != null) {
      for (DurableImage.JobImage j : base.image().jobs()) {
        put(traces, jobTraces, j.job(), j.replyTo());
      }
    } else {
      for (DurableRecord record : batch.records()) {
        if (record instanceof DurableRecord.Accepted a) {
          put(traces, jobTraces, a.job(), a.replyTo());
        }
      }
    }
    return traces;
  }

  private static void put(Map<String, JournalTrace> traces, JobTraces jobTraces, String job,
      Object replyTo) {
    JobTrace trace = jobTraces.trace(job, replyTo);
    if (trace != null) {
      traces.put(job, new JournalTrace(trace.traceparent(), trace.tracestate(),
          jobTraces.admittedAt(job, replyTo)));
    }
  }

  /** Nothing leaves any more: the leader stepped down. */
  void close() {
    gate.close();
    turn.drop();
    coordinator.scheduler().cancel(renewTimer);
  }
}
