package dev.shepherd.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Objects;

/**
 * Applies events to a real {@link Pool} and checks, after every step, the properties the rules
 * states, each failure starting with the rule it broke:
 *
 * <ul>
 *   <li>{@link PoolInvariants#check} (the core's own named invariants);
 *   <li>every submit gets exactly one admission; every accepted job exactly one terminal answer;
 *       a rejected job is never answered again;
 *   <li>no Assign to a slot whose in-flight already reached its capacity (C2);
 *   <li>FIFO among jobs eligible for the same slot, against an expected backlog order kept here:
 *       appends at the back, RETRY puts interrupted jobs back at the front in original order;
 *   <li>section 10: a job whose incarnation crashed or hung is a suspect that runs alone and
 *       is answered POISON at {@code poisonAfter} stops (J2), a stop while a suspect ran is not
 *       charged (J2), a suspect just stopped waits its retry delay and a job interrupted through
 *       no fault of its own does not (J3), a failed attempt runs again exactly while its retries
 *       allow (J3), a delayed submit waits (J4), no waiting job runs before its due time, a
 *       dead-lettered job is in the set and an answered one is found by lookup (J5, J6);
 *   <li>work conservation (C3) and in-flight = live assignments (C5), from the snapshot;
 *   <li>a refused event leaves the full state unchanged (fingerprint before = after);
 *   <li>a durable pool's records, replayed by a {@link Ledger}, rebuild its own image (A3), and a
 *       failover (a {@link PoolEvent.Recover} of the current term) hands every unanswered job to a
 *       pool of the next term, which answers each exactly once (running ones interrupted
 *       NODE_LOST), with tokens above every token of the old term (A2), its counters going on
 *       from the old pool's totals (T3).
 * </ul>
 *
 * <p>It learns nothing from the pool's internals except the expected-order cross-check; it reads
 * the events, the effects, the snapshot and the public accessors.
 */
final class PoolChecker implements SequenceRunner.Harness {
  /** Whether flow control (section 11) has come into play: groups, priorities, pauses, 429s. */
  private boolean flowSeen;

  /** One submit, identified by its unique replyTo. */
  private static final class Submission {
    final PoolEvent.Submit event;
    State state = State.SUBMITTED;
    Held job;

    Submission(PoolEvent.Submit event) {
      this.event = event;
    }
  }

  private enum State { SUBMITTED, ACCEPTED, REJECTED, ANSWERED }

  /** An accepted job as the checker expects it to be. */
  private static final class Held {
    final String id;
    final Submission submission;
    /** F6: moves with its key when a resize takes its slot out. */
    String target;
    boolean queued = true;
    String worker;
    long token;
    int attempts;
    boolean cancelled;
    /** J2: stops of its incarnations with exit CRASH or TIMEOUT. */
    int stops;
    /** Whether it was just interrupted by one of those stops. */
    boolean ownStop;
    /** While waiting (J3, J4): its due time, waiting order and where it goes when due. */
    boolean waiting;
    long dueAt;
    long waitSeq;
    boolean front;

    Held(String id, Submission submission, String target) {
      this.id = id;
      this.submission = submission;
      this.target = target;
    }

    @Override
    public String toString() {
      return id + (target == null ? "" : "@" + target)
          + (queued ? "" : " on " + worker + "#" + token);
    }
  }

  private PoolSettings settings;
  private Pool pool;
  /** What the store of a durable pool holds: its records on the image it recovered from. */
  private Ledger ledger;
  private final Map<Object, Submission> submissions = new HashMap<>();
  /** Accepted, unanswered jobs in expected backlog order (queued and running). */
  private final List<Held> line = new ArrayList<>();
  /** Accepted jobs waiting for a due time (J3, J4), not in the line. */
  private final List<Held> waitingJobs = new ArrayList<>();
  private long waitSeq;
  /** The state before the step under way, and the dead letter a replay under way replays. */
  private PoolState stateBefore;
  private DeadLetter replaying;
  /** Of the step under way: whether the restart it may decide must be charged (J2). */
  private final Map<String, Boolean> chargeable = new HashMap<>();
  /** Of the step under way: the last job answered and the last one dead-lettered. */
  private Outcome lastAnswer;
  private long lastAnswerBytes;
  private Outcome lastDead;
  private Held lastDeadJob;
  /** Live assignments per slot, in assignment order, cancelled ones included. */
  private final Map<String, List<Held>> running = new HashMap<>();
  /** Jobs whose assignment was interrupted in this transition, not yet requeued or answered. */
  private final List<Held> interrupted = new ArrayList<>();
  private long lastToken = Long.MIN_VALUE;
  private long now;
  /** Bindings of the driver's keys seen forgotten. */
  private long forgotten;
  /** Payload bytes queued before the step under way. */
  private long bytesBefore;
  private long accepted;
  private long rejected;
  private final Map<Class<?>, Long> answers = new HashMap<>();

  PoolChecker(PoolSettings settings) {
    this.settings = settings;
    this.pool = Pool.create(settings);
    this.ledger = new Ledger(DurableImage.empty(settings.term()));
    // A pool-wide rate limit (F4) can hold the default group's jobs back from a free slot, so C3
    // is then PoolInvariants' "no free slot could take a runnable job" from the first event.
    FlowSettings flow = settings.flow();
    this.flowSeen = flow != null && flow.poolRateLimit() != null;
  }

  /** The checked pool's lifecycle state. */
  PoolState state() {
    return pool.state();
  }

  @Override
  public List<Effect> start() {
    return pool.start();
  }

  @Override
  public Transition apply(PoolEvent event) {
    if (PoolDriver.isFailover(event, pool.settings().term())) {
      return failover((PoolEvent.Recover) event);
    }
    boolean refusable = !(event instanceof PoolEvent.Submit || event instanceof PoolEvent.TimerFired
        || event instanceof PoolEvent.Cancel || event instanceof PoolEvent.StopRequested);
    String before = refusable ? pool.fingerprint() : null;
    int backlogBefore = pool.backlogLength();
    bytesBefore = queuedBytes();
    List<String> bindingsBefore = bindings();
    now = event.now();
    stateBefore = pool.state();
    replaying = event instanceof PoolEvent.ReplayDead r ? pool.deadLetter(r.job()) : null;
    Transition transition = pool.apply(event);
    PoolSnapshot after = pool.snapshot(now);
    if (transition instanceof Transition.Refused refused) {
      require(refusable, "submits, cancels, timers and stop requests are never refused",
          () -> event + " -> " + refused);
      require(before.equals(pool.fingerprint()), "refused events change nothing",
          () -> refused.error() + "\nbefore:\n" + before + "\nafter:\n" + pool.fingerprint());
      if (refused.error() instanceof PoolError.InvalidCapacity invalid) {
        require(invalid.maxConcurrency() < 1 && invalid.message().contains("maxConcurrency"),
            "C1 a capacity below 1 is refused naming maxConcurrency", () -> invalid.message());
      }
    } else {
      follow(event, transition.effects(), after, backlogBefore);
      keep(transition.effects());
    }
    bindingsMoveOnlyByRebalance(event, transition, bindingsBefore);
    afterEveryStep(after);
    return transition;
  }

  /**
   * A3: a coordinator of the next term starts and recovers from the image; every assignment of
   * the old one ended with it. Its answers continue the old pool's: each job once.
   */
  private Transition failover(PoolEvent.Recover journaled) {
    // T3: the store keeps the totals of the last write (here, every record is written at once):
    // the new pool's counters go on from the old one's, and keep counting its answers.
    PoolEvent.Recover event = new PoolEvent.Recover(journaled.image(), pool.counters(),
        journaled.now());
    List<String> bindingsBefore = bindings();
    Pool next = Pool.create(PoolScenarios.successor(settings));
    List<Effect> effects = new ArrayList<>(next.start());
    for (String worker : new ArrayList<>(running.keySet())) {
      interruptAssignments(worker);
    }
    pool = next;
    settings = next.settings();
    now = event.now();
    int backlogBefore = pool.backlogLength();
    bytesBefore = queuedBytes();
    stateBefore = pool.state();
    replaying = null;
    Transition transition = pool.apply(event);
    require(transition instanceof Transition.Applied, "A3 a pool of the next term recovers",
        () -> event + " -> " + transition);
    for (DurableImage.JobImage j : event.image().jobs()) {
      if (j.dueAt() > 0) {
        for (Held held : waitingJobs) {
          if (held.id.equals(j.job())) {
            held.waitSeq = waitSeq++;
          }
        }
      }
    }
    effects.addAll(transition.effects());
    PoolSnapshot after = pool.snapshot(now);
    follow(event, effects, after, backlogBefore);
    ledger = new Ledger(event.image());
    keep(effects);
    Transition applied = new Transition.Applied(effects, transition.verdict());
    bindingsMoveOnlyByRebalance(event, applied, bindingsBefore);
    afterEveryStep(after);
    return applied;
  }

  /** The records of an applied transition go to the store. */
  private void keep(List<Effect> effects) {
    for (Effect effect : effects) {
      if (effect instanceof Effect.Persist persist) {
        require(settings.durable(), "A3 only a durable pool records", () -> persist.toString());
        ledger.apply(persist.record());
      }
    }
  }

  // ---- following one applied transition --------------------------------------------------------

  private void follow(PoolEvent event, List<Effect> effects, PoolSnapshot after,
      int backlogBefore) {
    Submission submitted = null;
    lastAnswer = null;
    lastDead = null;
    lastDeadJob = null;
    chargeable.clear();
    if (event instanceof PoolEvent.Submit submit) {
      require(!submissions.containsKey(submit.replyTo()), "test driver", () -> "replyTo reused");
      submitted = new Submission(submit);
      submissions.put(submit.replyTo(), submitted);
    }
    if (event instanceof PoolEvent.ReplayDead replay && replaying != null) {
      require(!submissions.containsKey(replay.replyTo()), "test driver", () -> "replyTo reused");
      PoolEvent.Submit again = new PoolEvent.Submit(replaying.job(), replaying.payload(),
          replaying.key(), replay.replyTo(), replaying.timeoutMs(), replaying.bytes(), 0,
          replaying.retry(), replaying.group(), replaying.priority(), replay.now());
      submitted = new Submission(again);
      submissions.put(replay.replyTo(), submitted);
    }
    if (event instanceof PoolEvent.TimerFired fired && fired.timer() instanceof Timer.Due) {
      release();
    }
    Held completing = null;
    boolean retrying = false;
    if (event instanceof PoolEvent.Completed completed) {
      Held job = liveAssignment(completed.worker(), completed.assignment());
      if (job == null) {
        require(effects.isEmpty(), "P8 only a live assignment completes",
            () -> completed + " applied with " + effects);
      } else {
        running.get(completed.worker()).remove(job);
        completing = job.cancelled ? null : job;
        if (completing != null && completed.error() != null) {
          FailureRetry retry = completing.submission.event.retry() != null
              ? completing.submission.event.retry() : settings.jobs().retryFailures();
          retrying = stateBefore == PoolState.RUNNING && completing.attempts < retry.maxAttempts();
          JobView view = pool.lookup(completing.id);
          if (retrying && !Fixture.notices(effects, Notice.SlotRemoved.class).isEmpty()
              && (view == null || view.state() == JobView.JobState.ANSWERED)) {
            // F6: the slot it ran on left, and nothing could take it (P11, or its key's slot).
            retrying = false;
          }
          if (retrying) {
            goBack(completing, !retry.backoff().none());
          }
        }
      }
    }
    if (event instanceof PoolEvent.SetGroup || event instanceof PoolEvent.Pause
        || event instanceof PoolEvent.Resume || event instanceof PoolEvent.RateLimited
        || event instanceof PoolEvent.Submit s && (s.group() != null
            || s.priority() != PoolEvent.Submit.DEFAULT_PRIORITY)) {
      flowSeen = true;
    }
    if (event instanceof PoolEvent.Progress report) {
      // T2: only a live, unanswered assignment's report is published, and nothing else happens.
      Held job = liveAssignment(report.worker(), report.assignment());
      if (job == null || job.cancelled) {
        require(effects.isEmpty(), "T2 only a live assignment's progress is published",
            () -> report + " applied with " + effects);
      } else {
        // A durable pool may journal it first (at most one checkpoint per job per
        // Pool.CHECKPOINT_WRITE_MS), as the report it is.
        boolean journaled = effects.size() == 2 && effects.get(0) instanceof Effect.Persist w
            && w.record().equals(new DurableRecord.Checkpointed(job.id, report.progress(),
                report.bytes()));
        int published = journaled ? 1 : 0;
        require(effects.size() == published + 1
                && effects.get(published) instanceof Effect.Progress p
                && p.job().equals(job.id) && p.progress().equals(report.progress())
                && p.attempt() == job.attempts,
            "T2 a live assignment's progress is published", () -> report + " applied with "
                + effects);
      }
    }
    if (event instanceof PoolEvent.RateLimited limited) {
      Held job = liveAssignment(limited.worker(), limited.assignment());
      if (job == null) {
        require(effects.isEmpty(), "F4 only a live assignment is answered rate limited",
            () -> limited + " applied with " + effects);
      } else {
        running.get(limited.worker()).remove(job);
        if (!job.cancelled && stateBefore == PoolState.RUNNING) {
          // F4: back at the front, its start not counted.
          job.attempts--;
          goBack(job, false);
        }
      }
    }
    if (event instanceof PoolEvent.WorkerDeregistered e) {
      interruptAssignments(e.worker());
    }
    if (event instanceof PoolEvent.HostRegistered e && effects.stream().anyMatch(effect ->
        effect instanceof Effect.Publish p && p.notice() instanceof Notice.HostChanged)) {
      // H8: a host that registers again without a slot it had departs that slot.
      List<String> named = new ArrayList<>();
      e.slots().forEach(spec -> named.add(spec.id()));
      for (String worker : new ArrayList<>(running.keySet())) {
        if (worker.startsWith(e.host() + "/") && !named.contains(worker)) {
          interruptAssignments(worker);
        }
      }
    }
    if (event instanceof PoolEvent.HostDeregistered e && effects.stream().anyMatch(effect ->
        effect instanceof Effect.Publish p && p.notice() instanceof Notice.HostChanged)) {
      for (String worker : new ArrayList<>(running.keySet())) {
        if (worker.startsWith(e.host() + "/")) {
          interruptAssignments(worker);
        }
      }
    }
    for (Effect effect : effects) {
      if (effect instanceof Effect.Respond respond) {
        respond(respond, submitted, completing, event, backlogBefore);
      } else if (effect instanceof Effect.Assign assign) {
        requeueInterrupted();
        assign(assign, after);
      } else if (effect instanceof Effect.Stop stop) {
        // A sibling restart and a lost host interrupt several slots, settled together.
        if (stop.reason() != Exit.SIBLING_RESTART && stop.reason() != Exit.NODE_LOST) {
          requeueInterrupted();
        }
        List<Held> on = running.getOrDefault(stop.worker(), List.of());
        chargeable.put(stop.worker(), !judged() || on.stream().noneMatch(job -> job.stops > 0));
        interruptAssignments(stop.worker());
        if (judged() && (stop.reason() == Exit.CRASH || stop.reason() == Exit.TIMEOUT)) {
          for (Held job : interrupted) {
            if (job.worker.equals(stop.worker())) {
              job.stops++;
              job.ownStop = true;
            }
          }
        }
      } else if (effect instanceof Effect.Publish publish
          && publish.notice() instanceof Notice.Resized resized) {
        retarget(resized.draining());
      } else if (effect instanceof Effect.Publish publish
          && publish.notice() instanceof Notice.PhaseChanged changed
          && changed.phase() == Phase.RETIRED) {
        // F6: a job bound to a slot that retires while the job runs on a draining slot is bound
        // to that slot again.
        running.forEach((worker, jobs) -> jobs.forEach(job -> {
          if (changed.worker().equals(job.target) && !worker.equals(job.target)) {
            job.target = worker;
          }
        }));
      } else if (effect instanceof Effect.Publish publish
          && publish.notice() instanceof Notice.RestartDecided decided) {
        Boolean expected = chargeable.get(decided.worker());
        require(expected == null || decided.charged() == expected,
            "J2 a stop while a suspect runs is not charged to the budget",
            () -> decided + " but a suspect ran: " + !expected);
      }
    }
    requeueInterrupted();
    Held completed = completing;
    if (completed != null && !retrying) {
      require(completed.submission.state == State.ANSWERED,
          "P8 a completion answers its job", () -> completed + " not answered by " + event);
    }
    // F6: a slot that leaves answers what can no longer run (P11, or a key with nowhere to go).
    boolean slotLeft = !Fixture.notices(effects, Notice.SlotRemoved.class).isEmpty();
    if (completed != null && retrying && !slotLeft) {
      require(completed.submission.state == State.ACCEPTED,
          "J3 a failed attempt with retries left is not answered", () -> completed + " by "
              + event);
    }
    checkKept();
    Submission submit = submitted;
    if (submit != null) {
      require(submit.state == State.ACCEPTED || submit.state == State.REJECTED,
          "P3 every submit gets one admission", () -> submit.event + " -> " + effects);
      if (submit.state == State.ACCEPTED) {
        require(after.backlogLength() <= Math.max(backlogBefore, settings.backlogCapacity()),
            "P3 the backlog is bounded", () -> after.backlogLength() + " queued after accepting");
      }
    }
  }

  /** F6: jobs bound to slots that leave go where their keys moved. */
  private void retarget(List<String> leaving) {
    // A slot whose drain ended runs its keyed jobs as its own again.
    PoolSnapshot after = pool.snapshot(now);
    running.forEach((worker, jobs) -> {
      boolean draining = after.slots().stream().anyMatch(slot -> slot.id().equals(worker)
          && slot.phase() == Phase.DRAINING);
      for (Held job : jobs) {
        if (!draining && !job.cancelled && job.target != null && !job.target.equals(worker)) {
          job.target = worker;
        }
      }
    });
    List<Held> all = new ArrayList<>(line);
    all.addAll(waitingJobs);
    running.values().forEach(all::addAll);
    for (Held held : all) {
      String key = held.submission.event.key();
      String bound = key == null ? null : pool.binding(key);
      boolean open = bound != null && pool.snapshot(now).slots().stream().anyMatch(slot ->
          slot.id().equals(bound) && slot.phase() != Phase.RETIRED && slot.phase() != Phase.LOST
              && slot.phase() != Phase.DRAINING);
      if (held.target != null && leaving.contains(held.target) && open
          && !bound.equals(held.target)) {
        held.target = bound;
      }
    }
  }

  private void respond(Effect.Respond respond, Submission submitted, Held completing,
      PoolEvent event, int backlogBefore) {
    Submission submission = submissions.get(respond.replyTo());
    require(submission != null, "answers go to submitters", () -> respond.toString());
    Outcome outcome = respond.outcome();
    answers.merge(outcome.getClass(), 1L, Long::sum);
    if (outcome instanceof Outcome.Accepted || outcome instanceof Outcome.Rejected) {
      require(submission == submitted && submission.state == State.SUBMITTED,
          "P3 one admission per submit, in its own transition", () -> respond.toString());
      String given = submission.event.job();
      require(given == null || given.equals(outcome.job()), "P15 the job keeps its id",
          () -> outcome.job());
      if (outcome instanceof Outcome.Accepted) {
        accept(submission, outcome.job());
      } else {
        reject(submission, (Outcome.Rejected) outcome, backlogBefore);
      }
      return;
    }
    require(submission.state != State.REJECTED, "a rejected job is never answered again",
        () -> respond.toString());
    require(submission.state != State.ANSWERED, "every accepted job is answered exactly once",
        () -> "second answer " + respond);
    require(submission.state == State.ACCEPTED, "terminal answers follow admission",
        () -> respond.toString());
    submission.state = State.ANSWERED;
    Held job = submission.job;
    require(job.id.equals(outcome.job()), "answers name their job", () -> respond + " for " + job);
    line.remove(job);
    waitingJobs.remove(job);
    boolean wasInterrupted = interrupted.remove(job);
    lastAnswer = outcome;
    lastAnswerBytes = outcome instanceof Outcome.Completed
        ? ((PoolEvent.Completed) event).bytes()
        : outcome instanceof Outcome.Interrupted ? job.submission.event.bytes()
        : outcome instanceof Outcome.Failed f ? f.error().message().length() : 0;
    boolean kept = outcome instanceof Outcome.Interrupted i
        && (i.reason() instanceof Interruption.Poison
            || i.reason() instanceof Interruption.AttemptsExhausted)
        || outcome instanceof Outcome.Failed && settings.jobs().deadLetterFailed();
    if (kept && settings.jobs().deadLetter().capacity() > 0) {
      lastDead = outcome;
      lastDeadJob = job;
    }
    if (outcome instanceof Outcome.Cancelled) {
      require(event instanceof PoolEvent.Cancel c && c.job().equals(job.id),
          "P17 only a cancel cancels", () -> respond + " on " + event);
      job.cancelled = true;
      return;
    }
    if (job.worker != null) {
      List<Held> on = running.get(job.worker);
      if (on != null) {
        on.remove(job);
      }
    }
    if (outcome instanceof Outcome.Completed c) {
      PoolEvent.Completed done = (PoolEvent.Completed) event;
      require(job == completing && c.worker().equals(job.worker) && c.attempts() == job.attempts
              && done.error() == null && Objects.equals(c.result(), done.result()),
          "P8 completed answers the completed assignment", () -> respond + " for " + job);
    } else if (outcome instanceof Outcome.Failed f) {
      PoolEvent.Completed done = (PoolEvent.Completed) event;
      require(job == completing && f.worker().equals(job.worker) && f.attempts() == job.attempts
              && f.error().equals(done.error()),
          "P8 failed answers the completed assignment", () -> respond + " for " + job);
    } else if (outcome instanceof Outcome.Interrupted i) {
      require(i.payload().equals(job.submission.event.payload()) && i.attempts() == job.attempts,
          "P9 interrupted hands back the payload", () -> respond + " for " + job);
      if (event instanceof PoolEvent.StopRequested) {
        require(i.reason() instanceof Interruption.PoolStopped,
            "P16 a stop answers what it holds POOL_STOPPED", () -> respond.toString());
      }
      if (i.reason() instanceof Interruption.Poison poison) {
        require(judged() && wasInterrupted && job.ownStop && poison.stops() == job.stops
                && job.stops == settings.jobs().poisonAfter()
                && poison.last().worker().equals(job.worker),
            "J2 a job is POISON at poisonAfter stops of its own", () -> respond + " for " + job
                + " stops " + job.stops);
      }
      if (wasInterrupted && settings.interruption() == InterruptionPolicy.FAIL) {
        require(i.reason() instanceof Interruption.PoolStopped
                || (i.reason() instanceof Interruption.WorkerStopped stopped
                    && stopped.worker().equals(job.worker)),
            "P9 FAIL answers WORKER_STOPPED from the job's worker", () -> respond.toString());
      }
    }
  }

  private void accept(Submission submission, String id) {
    for (Held other : line) {
      require(!other.id.equals(id), "P15 duplicate job ids are rejected",
          () -> id + " accepted twice");
    }
    for (Held other : waitingJobs) {
      require(!other.id.equals(id), "P15 duplicate job ids are rejected",
          () -> id + " accepted twice");
    }
    String key = submission.event.key();
    Held job = new Held(id, submission, key == null ? null : pool.binding(key));
    require(key == null || job.target != null, "P4 an accepted key is bound", () -> key);
    submission.state = State.ACCEPTED;
    submission.job = job;
    accepted++;
    if (Math.min(submission.event.delayMs(), settings.jobs().maxDelayMs()) > 0) {
      job.queued = false;
      job.waiting = true;
      job.front = false;
      job.dueAt = submission.event.now()
          + Math.min(submission.event.delayMs(), settings.jobs().maxDelayMs());
      job.waitSeq = waitSeq++;
      waitingJobs.add(job);
    } else {
      line.add(job);
    }
  }

  private void reject(Submission submission, Outcome.Rejected rejection, int backlogBefore) {
    submission.state = State.REJECTED;
    rejected++;
    require(rejection.payload().equals(submission.event.payload()),
        "P3 a rejection hands back the payload", () -> rejection.toString());
    if (rejection.reason() == RejectionReason.BACKLOG_FULL) {
      long bytes = submission.event.bytes();
      require(backlogBefore >= settings.backlogCapacity()
              || bytesBefore + bytes > settings.backlogMaxBytes(),
          "P3 BACKLOG_FULL only when full (by count or bytes)",
          () -> backlogBefore + " queued of " + settings.backlogCapacity() + ", " + bytesBefore
              + " + " + bytes + " bytes of " + settings.backlogMaxBytes());
    } else if (rejection.reason() == RejectionReason.DUPLICATE_JOB) {
      require(line.stream().anyMatch(h -> h.id.equals(rejection.job()))
              || waitingJobs.stream().anyMatch(h -> h.id.equals(rejection.job())),
          "P15 DUPLICATE_JOB only for an unanswered id", () -> rejection.job());
    }
  }

  /** Whether two jobs share a group and a priority level (F1, F3). */
  private static boolean sameLevel(Held a, Held b) {
    return Objects.equals(a.submission.event.group(), b.submission.event.group())
        && a.submission.event.priority() == b.submission.event.priority();
  }

  private void assign(Effect.Assign assign, PoolSnapshot after) {
    require(assign.assignment() > lastToken, "P6 tokens are monotonic, never reused",
        () -> assign + " after " + lastToken);
    lastToken = assign.assignment();
    Held first = null;
    Held job = null;
    for (Held held : line) {
      if (held.queued && held.id.equals(assign.job())) {
        job = held;
      }
    }
    for (Held held : line) {
      if (!held.queued) {
        continue;
      }
      // F2, F3: FIFO holds within a group and a priority level (without aging).
      if (first == null && (held.target == null || held.target.equals(assign.worker()))
          && (job == null || settings.flow().priorityAgingMs() > 0 ? held == job
              : sameLevel(held, job))) {
        first = held;
      }
    }
    Held earliest = first;
    require(job != null, "P6 only queued jobs are assigned", () -> assign + "; line " + line);
    require(earliest == job, "P6 FIFO among jobs eligible for the same slot",
        () -> assign + " but " + earliest + " is earlier; line " + line);
    PoolSnapshot.SlotStatus slot = status(after, assign.worker());
    require(slot != null, "C2 assignments go to registered slots", () -> assign.toString());
    List<Held> on = running.computeIfAbsent(assign.worker(), w -> new ArrayList<>());
    Held assigned = job;
    require(on.stream().noneMatch(held -> held.stops > 0) && (job.stops == 0 || on.isEmpty()),
        "J2 suspects run alone", () -> assign + " for " + assigned + " beside " + on);
    require(slot.capacity() > 0 && on.size() < slot.capacity(),
        "C2 no assignment beyond capacity",
        () -> assign + " with " + on + ", capacity " + slot.capacity());
    require(assign.payload().equals(job.submission.event.payload())
            && assign.attempt() == job.attempts + 1
            && Objects.equals(assign.key(), job.submission.event.key()),
        "P6 the assignment carries the job", () -> assign + " for " + earliest);
    job.queued = false;
    job.worker = assign.worker();
    job.token = assign.assignment();
    job.attempts++;
    on.add(job);
  }

  private void interruptAssignments(String worker) {
    List<Held> on = running.remove(worker);
    if (on != null) {
      for (Held job : on) {
        if (!job.cancelled) {
          interrupted.add(job);
        }
      }
    }
  }

  private boolean judged() {
    return settings.jobs().poisonAfter() > 0;
  }

  /**
   * P9, J3: interrupted jobs not answered go back to the front, in their original order; a
   * suspect just stopped waits its retry delay instead (when there is one), and nothing else
   * waits.
   */
  private void requeueInterrupted() {
    if (interrupted.isEmpty()) {
      return;
    }
    List<Held> again = new ArrayList<>();
    for (Held job : line) {
      if (interrupted.contains(job)) {
        again.add(job);
      }
    }
    interrupted.clear();
    List<Held> front = new ArrayList<>();
    for (Held job : again) {
      require(settings.interruption() == InterruptionPolicy.RETRY,
          "P9 FAIL answers every interrupted job", () -> job + " neither answered nor requeued");
      require(settings.maxAttempts() == 0 || job.attempts < settings.maxAttempts(),
          "P13 a job out of attempts is answered ATTEMPTS_EXHAUSTED", () -> job + " requeued");
      require(!job.ownStop || job.stops < settings.jobs().poisonAfter(),
          "J2 a job is POISON at poisonAfter stops of its own", () -> job + " requeued");
      boolean waits = job.ownStop && !settings.jobs().retryBackoff().none();
      job.ownStop = false;
      if (waits) {
        line.remove(job);
        goBack(job, true);
      } else {
        front.add(job);
      }
    }
    for (Held job : front) {
      job.queued = true;
      job.worker = null;
    }
    line.removeAll(front);
    line.addAll(0, front);
  }

  /**
   * A job going back (an interrupted suspect, a failed attempt): to wait for its due time (the
   * pool must say it WAITS, due after now), or at once to the front of the line.
   */
  private void goBack(Held job, boolean waits) {
    JobView view = pool.lookup(job.id);
    if (waits) {
      require(view != null && view.state() == JobView.JobState.WAITING && view.dueAt() > now,
          "J3 a retry waits for its delay", () -> job + " is " + view);
      line.remove(job);
      job.queued = false;
      job.worker = null;
      job.waiting = true;
      job.front = true;
      job.dueAt = view.dueAt();
      job.waitSeq = waitSeq++;
      waitingJobs.add(job);
    } else {
      require(view == null || view.state() != JobView.JobState.WAITING,
          "J3 only a suspect's or a failure's retry waits", () -> job + " is " + view);
      line.remove(job);
      job.queued = true;
      job.worker = null;
      line.add(0, job);
    }
  }

  /**
   * J3, J4: the due timer fired: the jobs the pool released (no longer WAITING) go back,
   * retries to the front and delayed submits to the back, each group in due order; none is
   * released before its due time.
   */
  private void release() {
    List<Held> due = new ArrayList<>();
    for (Held job : waitingJobs) {
      JobView view = pool.lookup(job.id);
      if (view == null || view.state() != JobView.JobState.WAITING) {
        due.add(job);
      } else {
        require(view.dueAt() == job.dueAt, "J3 a waiting job keeps its due time",
            () -> job + " is " + view);
      }
    }
    due.sort(java.util.Comparator.<Held>comparingLong(j -> j.dueAt)
        .thenComparingLong(j -> j.waitSeq));
    List<Held> front = new ArrayList<>();
    for (Held job : due) {
      require(job.dueAt <= now, "J3 a waiting job never runs before its due time",
          () -> job + " released at " + now);
      waitingJobs.remove(job);
      job.waiting = false;
      job.queued = true;
      if (job.front) {
        front.add(job);
      } else {
        line.add(job);
      }
    }
    line.addAll(0, front);
  }

  /** J5, J6: the last job dead-lettered is in the set, the last answered one is found. */
  private void checkKept() {
    if (lastDead != null && lastDeadJob.submission.event.bytes()
        <= settings.jobs().deadLetter().maxBytes()) {
      DeadLetter entry = pool.deadLetter(lastDeadJob.id);
      require(entry != null && entry.answer().equals(lastDead),
          "J5 a job that will not run again is kept in the dead-letter set",
          () -> lastDeadJob + " -> " + entry);
    }
    Retention recent = settings.jobs().recentOutcomes();
    if (lastAnswer != null && recent.capacity() > 0 && lastAnswerBytes <= recent.maxBytes()) {
      JobView view = pool.lookup(lastAnswer.job());
      require(view != null && lastAnswer.equals(view.outcome()),
          "J6 an answered job is found by lookup", () -> lastAnswer + " -> " + view);
    }
  }

  private Held liveAssignment(String worker, long token) {
    List<Held> on = running.get(worker);
    if (on != null) {
      for (Held job : on) {
        if (job.token == token) {
          return job;
        }
      }
    }
    return null;
  }

  /**
   * P4, P5: a binding appears only with an accepted unseen key and moves only by Rebalance, or
   * with its slot when a resize drains it (F6).
   */
  private void bindingsMoveOnlyByRebalance(PoolEvent event, Transition transition,
      List<String> before) {
    List<String> after = bindings();
    for (int k = 0; k < after.size(); k++) {
      String key = "k" + k;
      String was = before.get(k);
      String now = after.get(k);
      if (event instanceof PoolEvent.Rebalance r && r.key().equals(key)
          && transition instanceof Transition.Applied) {
        require(r.worker().equals(now) || (now == null && !held(key)),
            "P5 a rebalance binds the key (an idle one may be forgotten at once)",
            () -> r + " -> " + now);
      } else if (was != null && now == null) {
        require(!held(key), "PoolLimits only an idle binding is forgotten",
            () -> event + " forgot " + key + " while a job of it is held");
        forgotten++;
      } else if (was == null && now != null) {
        Object replyTo = event instanceof PoolEvent.Submit s && key.equals(s.key()) ? s.replyTo()
            : event instanceof PoolEvent.ReplayDead r && replaying != null
                && key.equals(replaying.key()) ? r.replyTo() : null;
        require(replyTo != null && submissions.get(replyTo).state == State.ACCEPTED,
            "P4 only an accepted unseen key is bound", () -> event + " bound " + key);
      } else if (!Objects.equals(was, now) && transition instanceof Transition.Applied applied
          && (event instanceof PoolEvent.Resize || event instanceof PoolEvent.Recover)) {
        // F6: a key moves with its slot when a resize takes the slot out, and only then.
        require(Fixture.notices(applied.effects(), Notice.Resized.class).stream()
                .anyMatch(resized -> resized.draining().contains(was)),
            "F6 a key moves only when its slot leaves",
            () -> event + " moved " + key + " from " + was + " to " + now);
      } else {
        require(Objects.equals(was, now), "P5 only a rebalance moves a binding",
            () -> event + " moved " + key + " from " + was + " to " + now);
      }
    }
  }

  long forgotten() {
    return forgotten;
  }

  /** Whether a job of {@code key} is accepted and not yet answered. */
  private boolean held(String key) {
    for (Held job : line) {
      if (key.equals(job.submission.event.key())) {
        return true;
      }
    }
    for (Held job : waitingJobs) {
      if (key.equals(job.submission.event.key())) {
        return true;
      }
    }
    return false;
  }

  /** Payload bytes of the jobs queued or waiting now, as the submits declared them. */
  private long queuedBytes() {
    long sum = 0;
    for (Held job : line) {
      if (job.queued) {
        sum += job.submission.event.bytes();
      }
    }
    for (Held job : waitingJobs) {
      sum += job.submission.event.bytes();
    }
    return sum;
  }

  private List<String> bindings() {
    List<String> bound = new ArrayList<>(PoolDriver.KEYS);
    for (int k = 0; k < PoolDriver.KEYS; k++) {
      bound.add(pool.binding("k" + k));
    }
    return bound;
  }

  // ---- after every step ------------------------------------------------------------------------

  private void afterEveryStep(PoolSnapshot snapshot) {
    try {
      PoolInvariants.check(pool);
    } catch (AssertionError broken) {
      throw new AssertionError("PoolInvariants: " + broken.getMessage(), broken);
    }
    if (settings.durable()) {
      DurableImage replayed = ledger.image(settings.term());
      DurableImage own = pool.durableImage();
      require(replayed.equals(own), "A3 the records rebuild the pool's own image",
          () -> "replayed " + replayed + "\nown      " + own);
      int entries = own.jobs().size() + own.dead().size() + own.recent().size()
          + own.bindings().size() + own.hosts().size();
      require(pool.durableEntries() == entries,
          "A3 the pool counts its image's entries, which space its checkpoints",
          () -> pool.durableEntries() + " counted, the image holds " + entries);
    }
    int queued = 0;
    for (Held job : line) {
      if (job.queued) {
        queued++;
      }
    }
    int held = queued + waitingJobs.size();
    require(snapshot.backlogLength() == held && snapshot.backlogWaiting() == waitingJobs.size(),
        "backlog length is the queued and waiting jobs",
        () -> snapshot.backlogLength() + " (" + snapshot.backlogWaiting() + " waiting) vs expected "
            + line + " and waiting " + waitingJobs);
    require(pool.unanswered() == line.size() + waitingJobs.size(),
        "every accepted job is held until answered",
        () -> pool.unanswered() + " held, expected " + line + " and waiting " + waitingJobs);
    for (Held job : waitingJobs) {
      JobView view = pool.lookup(job.id);
      require(view != null && view.state() == JobView.JobState.WAITING
              && view.dueAt() == job.dueAt, "J3 a waiting job waits for its due time",
          () -> job + " is " + view);
    }
    List<String> expectedOrder = new ArrayList<>();
    line.stream().filter(h -> h.queued).forEach(h -> expectedOrder.add(h.id));
    List<String> actualOrder = new ArrayList<>();
    pool.data().backlog.inOrder(pool.data().slots).forEach(job -> actualOrder.add(job.id));
    require(expectedOrder.equals(actualOrder), "P6/P9 backlog order",
        () -> "core " + actualOrder + ", expected " + expectedOrder);
    int seen = 0;
    for (PoolSnapshot.SlotStatus slot : snapshot.slots()) {
      List<Long> expected = new ArrayList<>();
      running.getOrDefault(slot.id(), List.of()).forEach(job -> expected.add(job.token));
      List<Long> tokens = new ArrayList<>();
      slot.assignments().forEach(a -> tokens.add(a.assignment()));
      require(slot.inFlight() == tokens.size() && tokens.equals(expected),
          "C5 in-flight equals live assignments", () -> slot + " expected " + expected);
      seen += expected.size();
      boolean suspectRuns = running.getOrDefault(slot.id(), List.of()).stream()
          .anyMatch(job -> job.stops > 0);
      // With flow control C3 reads "no free slot could take a runnable job": PoolInvariants.
      if (!flowSeen && snapshot.state() == PoolState.RUNNING && slot.capacity() > slot.inFlight()
          && !suspectRuns && (slot.phase() == Phase.IDLE || slot.phase() == Phase.ASSIGNED)) {
        Held first = null;
        for (Held job : line) {
          if (job.queued && (job.target == null || job.target.equals(slot.id()))) {
            first = job;
            break;
          }
        }
        Held waiting = first;
        require(first == null || (first.stops > 0 && slot.inFlight() > 0),
            "C3 work-conserving", () -> waiting + " waits while " + slot.id() + " is free");
      }
    }
    int assigned = 0;
    for (List<Held> on : running.values()) {
      assigned += on.size();
    }
    require(snapshot.state() != PoolState.DRAINING || seen > 0,
        "P16 a drain ends with its last running assignment", () -> snapshot.toString());
    int extra = assigned - seen;
    require(extra == 0, "C5 in-flight equals live assignments",
        () -> "departed or unknown slots hold " + extra);
    Counters counters = snapshot.counters();
    require(counters.accepted() == accepted && counters.rejected() == rejected
            && counters.completed() == count(Outcome.Completed.class)
            && counters.failed() == count(Outcome.Failed.class)
            && counters.interrupted() == count(Outcome.Interrupted.class)
            && counters.cancelled() == count(Outcome.Cancelled.class),
        "counters count answers", () -> counters + " vs " + answers);
  }

  private long count(Class<?> type) {
    return answers.getOrDefault(type, 0L);
  }

  /** After the closing stop and drain: nothing accepted is left unanswered. */
  @Override
  public void finish() {
    require(pool.state() == PoolState.STOPPED, "P16 the pool stops", () -> "state " + pool.state());
    for (Submission submission : submissions.values()) {
      require(submission.state == State.REJECTED || submission.state == State.ANSWERED,
          "P16 nothing accepted goes unanswered",
          () -> submission.event + " is " + submission.state);
    }
    require(pool.unanswered() == 0 && line.isEmpty() && waitingJobs.isEmpty(),
        "P16 nothing accepted goes unanswered",
        () -> pool.unanswered() + " held");
  }

  private static PoolSnapshot.SlotStatus status(PoolSnapshot snapshot, String worker) {
    for (PoolSnapshot.SlotStatus slot : snapshot.slots()) {
      if (slot.id().equals(worker)) {
        return slot;
      }
    }
    return null;
  }

  static void require(boolean holds, String rule, Supplier<String> detail) {
    if (!holds) {
      throw new AssertionError(rule + ": " + detail.get());
    }
  }
}
