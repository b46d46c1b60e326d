package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Map;
import java.util.Set;

/**
 * Builds pools for the rule tests and drives one through events, one step at a time. Every step
 * checks {@link PoolInvariants} and the core invariant from the outside: an accepted job is
 * answered exactly once with a terminal outcome. Time is explicit ({@link #at}); payloads and
 * reply addresses are derived from the job id ({@link #payload}, {@link #reply}).
 *
 * <p>The default affinity selector is {@link #PREFIX_SELECTOR}: key {@code "w-1/user-7"} chooses
 * {@code w-1}, so tests state the binding they expect in the key itself.
 */
final class Fixture {

  /** Chooses the slot named before the first '/' of the key, or nothing when there is no '/'. */
  static final AffinitySelector PREFIX_SELECTOR =
      (key, slots) -> key.indexOf('/') < 0 ? null : key.substring(0, key.indexOf('/'));

  final Pool pool;
  private final boolean checking;
  private final List<Effect> startEffects;
  private final List<Effect> log = new ArrayList<>();
  private final List<PoolError> refusals = new ArrayList<>();
  private final Set<String> open = new HashSet<>();
  private final Map<String, Effect.Assign> lastAssign = new HashMap<>();
  /** Timers the pool started and has not cancelled. */
  private final PendingTimers timers = new PendingTimers();
  /** The store of a durable pool: the image it recovered from and every record since. */
  private final Ledger ledger;
  private long now;
  /** The effects of the recovery, for a pool that took over ({@link #takeOver}). */
  private List<Effect> recoveryEffects = List.of();

  private Fixture(PoolSettings settings, boolean checking) {
    this.pool = Pool.create(settings);
    this.checking = checking;
    this.startEffects = pool.start();
    this.ledger = new Ledger(DurableImage.empty(settings.term()));
  }

  /** The next term's pool, started, about to recover from {@code image}. */
  private Fixture(Fixture previous, DurableImage image) {
    this(previous, image, UnaryOperator.identity());
  }

  /** The same, its settings (of the next term) changed by {@code change}. */
  private Fixture(Fixture previous, DurableImage image, UnaryOperator<PoolSettings> change) {
    this.pool = Pool.create(change.apply(
        previous.pool.settings().withTerm(previous.pool.settings().term() + 1)));
    this.checking = previous.checking;
    this.startEffects = pool.start();
    this.ledger = new Ledger(image);
    this.now = previous.now;
    this.open.addAll(previous.open);
  }

  /** A pool of {@code slots} slots {@code w-0 …} with Shepherd's defaults, to adjust. */
  static Builder pool(int slots) {
    return new Builder(slots);
  }

  /** A pool with no slot of its own that runs worker hosts' slots (H2). */
  static Builder hostsOnly() {
    Builder builder = new Builder(1);
    builder.settings = builder.settings.withHosts(new HostSettings(true, 30_000))
        .withSlots(List.of());
    return builder;
  }

  /** A pool of exactly these slots, otherwise with Shepherd's defaults. */
  static Builder pool(SlotSpec... specs) {
    return new Builder(1).slots(specs);
  }

  static Object payload(String job) {
    return "payload-" + job;
  }

  static Object reply(String job) {
    return "reply-" + job;
  }

  static Object result(String job) {
    return "result-" + job;
  }

  // ---- building ------------------------------------------------------------------------------

  /** Settings under construction; {@link #running()} and {@link #started()} build the pool. */
  static final class Builder {
    private PoolSettings settings;
    private RestartPolicy policy;
    private Strategy strategy;
    private int maxRestarts;
    private long windowMs;
    private BudgetReaction reaction;
    private BackoffSettings backoff;
    private long reviveAfterMs;
    private long reviveMaxMs;
    private boolean checking = true;

    private Builder(int slots) {
      settings = PoolSettings.defaults("test", slots).withSelector(PREFIX_SELECTOR);
      SupervisionSettings s = settings.supervision();
      policy = s.policy();
      strategy = s.strategy();
      maxRestarts = s.maxRestarts();
      windowMs = s.restartWindowMs();
      reaction = s.onBudgetExceeded();
      backoff = s.backoff();
    }

    /** Flow control (section 11, F1-F5 in docs/rules.md). */
    Builder flow(FlowSettings flow) {
      settings = settings.withFlow(flow);
      return this;
    }

    Builder backlog(int capacity) {
      settings = settings.withBacklogCapacity(capacity);
      return this;
    }

    Builder retry(int maxAttempts) {
      settings = settings.withInterruption(InterruptionPolicy.RETRY, maxAttempts);
      return this;
    }

    Builder failPolicy() {
      settings = settings.withInterruption(InterruptionPolicy.FAIL, settings.maxAttempts());
      return this;
    }

    Builder jobTimeout(long ms) {
      settings = settings.withJobTimeoutMs(ms);
      return this;
    }

    Builder drain(long ms) {
      settings = settings.withDrainTimeoutMs(ms);
      return this;
    }

    Builder term(long term) {
      settings = settings.withTerm(term);
      return this;
    }

    Builder selector(AffinitySelector selector) {
      settings = settings.withSelector(selector);
      return this;
    }

    /** Every configured slot advertises {@code maxConcurrency} (null: unknown). */
    Builder capacity(Integer maxConcurrency) {
      List<SlotSpec> specs = new ArrayList<>();
      for (SlotSpec spec : settings.slots()) {
        specs.add(new SlotSpec(spec.id(), maxConcurrency));
      }
      settings = settings.withSlots(specs);
      return this;
    }

    Builder slots(SlotSpec... specs) {
      settings = settings.withSlots(List.of(specs));
      return this;
    }

    Builder policy(RestartPolicy value) {
      policy = value;
      return this;
    }

    Builder strategy(Strategy value) {
      strategy = value;
      return this;
    }

    Builder budget(int max, long window) {
      maxRestarts = max;
      windowMs = window;
      return this;
    }

    Builder onBudgetExceeded(BudgetReaction value) {
      reaction = value;
      return this;
    }

    Builder reviveAfter(long ms) {
      reviveAfterMs = ms;
      reviveMaxMs = ms;
      return this;
    }

    /** Revive probes after {@code afterMs}, doubling per failed probe up to {@code maxMs}. */
    Builder reviveAfter(long afterMs, long maxMs) {
      reviveAfterMs = afterMs;
      reviveMaxMs = maxMs;
      return this;
    }

    /** Section 10's job rules (poison, retry delays, dead letters, recent outcomes). */
    Builder jobs(JobSettings jobs) {
      settings = settings.withJobs(jobs);
      return this;
    }

    Builder backoff(BackoffSettings value) {
      backoff = value;
      return this;
    }

    Builder hostGrace(long ms) {
      settings = settings.withHosts(new HostSettings(settings.hosts().hostsOnly(), ms));
      return this;
    }

    /** The pool records what must survive its coordinator (HA, A3). */
    Builder durable() {
      settings = settings.withDurable(true);
      return this;
    }

    Builder limits(PoolLimits limits) {
      settings = settings.withLimits(limits);
      return this;
    }

    /** For scale tests: no invariant check, log or answer tracking per step. */
    Builder bulk() {
      checking = false;
      return this;
    }

    PoolSettings settings() {
      return settings.withSupervision(
          new SupervisionSettings(policy, strategy, maxRestarts, windowMs, reaction, backoff)
              .withRevive(reviveAfterMs, reviveMaxMs));
    }

    /** Started: every slot INSTALLING, its first Deploy returned by {@link #startEffects()}. */
    Fixture started() {
      return new Fixture(settings(), checking);
    }

    /** Started and every configured slot created at t=0. */
    Fixture running() {
      Fixture fx = started();
      for (String id : fx.pool.slotIds()) {
        fx.created(id);
      }
      return fx;
    }
  }

  // ---- driving -------------------------------------------------------------------------------

  long now() {
    return now;
  }

  /** Moves the clock to {@code t} (never backwards); later events carry it. */
  Fixture at(long t) {
    assertThat(t).as("time never decreases").isGreaterThanOrEqualTo(now);
    now = t;
    return this;
  }

  private Transition.Verdict verdict = Transition.Verdict.NONE;

  List<Effect> startEffects() {
    return startEffects;
  }

  /** What the last applied event decided about its request. */
  Transition.Verdict verdict() {
    return verdict;
  }

  /** Applies an event that must apply; checks invariants; returns its effects. */
  List<Effect> apply(PoolEvent event) {
    Transition t = pool.apply(event);
    if (t instanceof Transition.Refused refused) {
      fail("expected " + event + " to apply, was refused: " + refused.error());
    }
    verdict = t.verdict();
    List<Effect> effects = t.effects();
    keepTimers(effects);
    for (Effect effect : effects) {
      if (effect instanceof Effect.Persist persist) {
        ledger.apply(persist.record());
      }
    }
    if (checking) {
      log.addAll(effects);
      track(effects);
      PoolInvariants.check(pool);
    }
    return effects;
  }

  /** Applies an event that must be refused, and checks that it changed nothing. */
  PoolError refuse(PoolEvent event) {
    String before = pool.fingerprint();
    long staleBefore = pool.snapshot(now).counters().staleCompletions();
    int unanswered = pool.unanswered();
    Transition t = pool.apply(event);
    assertThat(t).as("refusal of " + event).isInstanceOf(Transition.Refused.class);
    PoolError error = ((Transition.Refused) t).error();
    assertThat(pool.fingerprint()).as("a refused event leaves the state as it was")
        .isEqualTo(before);
    boolean stale = error instanceof PoolError.StaleCompletion
        || error instanceof PoolError.CompletionForUnavailableWorker;
    assertThat(pool.snapshot(now).counters().staleCompletions())
        .as("only a refused completion is counted").isEqualTo(staleBefore + (stale ? 1 : 0));
    assertThat(pool.unanswered()).isEqualTo(unanswered);
    refusals.add(error);
    PoolInvariants.check(pool);
    return error;
  }

  private void keepTimers(List<Effect> effects) {
    effects.forEach(timers::observe);
  }

  /** Timers waiting, with their expiry (what a runtime would hold). */
  Map<Timer, Long> timers() {
    return timers.asMap();
  }

  private void track(List<Effect> effects) {
    for (Effect effect : effects) {
      if (effect instanceof Effect.Respond respond) {
        Outcome outcome = respond.outcome();
        if (outcome instanceof Outcome.Accepted) {
          assertThat(open.add(outcome.job())).as("accepted twice while open: " + outcome).isTrue();
        } else if (outcome.terminal() && !(outcome instanceof Outcome.Rejected)) {
          assertThat(open.remove(outcome.job()))
              .as("terminal answer for a job that is not open: " + outcome).isTrue();
        }
      } else if (effect instanceof Effect.Assign assign) {
        lastAssign.put(assign.job(), assign);
      }
    }
  }

  List<Effect> submit(String job) {
    return apply(new PoolEvent.Submit(job, payload(job), null, reply(job), 0, now));
  }

  List<Effect> submit(String job, String key) {
    return apply(new PoolEvent.Submit(job, payload(job), key, reply(job), 0, now));
  }

  /** F1, F3: a submit of group {@code group} (null: none) at {@code priority}. */
  List<Effect> submitIn(String job, String group, int priority) {
    return submitIn(job, group, null, priority);
  }

  /** F1, F3: a keyed submit of group {@code group} at {@code priority}. */
  List<Effect> submitIn(String job, String group, String key, int priority) {
    return apply(new PoolEvent.Submit(job, payload(job), key, reply(job), 0, 0, 0, null, group,
        priority, now));
  }

  /** F1, F5: an operator sets {@code group}'s override. */
  List<Effect> setGroup(String group, GroupSettings settings) {
    return apply(new PoolEvent.SetGroup(group, settings, now));
  }

  /** F5: an operator pauses {@code group} (null: the pool). */
  List<Effect> pause(String group) {
    return apply(new PoolEvent.Pause(group, now));
  }

  /** F5: an operator resumes {@code group} (null: the pool). */
  List<Effect> resume(String group) {
    return apply(new PoolEvent.Resume(group, now));
  }

  /** F4: the handler of {@code job}'s live assignment answered "rate limited for holdMs". */
  List<Effect> rateLimited(String job, long holdMs) {
    Effect.Assign a = assignment(job);
    return apply(new PoolEvent.RateLimited(a.worker(), a.assignment(), holdMs, now));
  }

  /** F1: the status of {@code group}, or null. */
  PoolSnapshot.GroupStatus group(String group) {
    return pool.group(group, now);
  }

  /** A submit whose payload costs {@code bytes} against the backlog's byte budget. */
  List<Effect> submitBytes(String job, String key, long bytes) {
    return apply(new PoolEvent.Submit(job, payload(job), key, reply(job), 0, bytes, now));
  }

  /** J4: a submit held back {@code delayMs}. */
  List<Effect> submitDelayed(String job, long delayMs) {
    return apply(new PoolEvent.Submit(job, payload(job), null, reply(job), 0, 0, delayMs, null,
        now));
  }

  /** J3: a submit with its own failure retries. */
  List<Effect> submitRetrying(String job, FailureRetry retry) {
    return apply(new PoolEvent.Submit(job, payload(job), null, reply(job), 0, 0, 0, retry, now));
  }

  /** J5: replays dead-lettered {@code job}; its admission goes to {@code reply("replay-" + job)}. */
  List<Effect> replay(String job) {
    return apply(new PoolEvent.ReplayDead(job, reply("replay-" + job), now));
  }

  List<Effect> discard(String job) {
    return apply(new PoolEvent.DiscardDead(job, now));
  }

  /** J6: where {@code job} is. */
  JobView lookup(String job) {
    return pool.lookup(job);
  }

  List<Effect> submitWithTimeout(String job, long timeoutMs) {
    return apply(new PoolEvent.Submit(job, payload(job), null, reply(job), timeoutMs, now));
  }

  /** Submits each job in turn and returns every effect, in order. */
  List<Effect> submitAllEffects(String... jobs) {
    List<Effect> effects = new ArrayList<>();
    for (String job : jobs) {
      effects.addAll(submit(job));
    }
    return effects;
  }

  void submitAll(String... jobs) {
    for (String job : jobs) {
      submit(job);
    }
  }

  /** Completes the live assignment of {@code job} with {@link #result}. */
  List<Effect> complete(String job) {
    Effect.Assign a = assignment(job);
    return apply(new PoolEvent.Completed(a.worker(), a.assignment(), result(job), null, now));
  }

  List<Effect> complete(String worker, long token) {
    return apply(new PoolEvent.Completed(worker, token, "result", null, now));
  }

  /** T2: the live attempt of {@code job} reports {@code progress}. */
  List<Effect> progress(String job, Object progress) {
    Effect.Assign a = assignment(job);
    return apply(new PoolEvent.Progress(a.worker(), a.assignment(), progress, 10, now));
  }

  /** T2: a submit with its own progress timeout. */
  List<Effect> submitWithProgressTimeout(String job, long progressTimeoutMs) {
    return apply(new PoolEvent.Submit(job, payload(job), null, reply(job), 0, 0, 0, null, null,
        PoolEvent.Submit.DEFAULT_PRIORITY, progressTimeoutMs, now));
  }

  /** The worker returns a failed future for {@code job}. */
  List<Effect> failJob(String job, JobError error) {
    Effect.Assign a = assignment(job);
    return apply(new PoolEvent.Completed(a.worker(), a.assignment(), null, error, now));
  }

  List<Effect> created(String worker) {
    return apply(new PoolEvent.WorkerCreated(worker, pool.incarnation(worker), now));
  }

  List<Effect> creationFailed(String worker) {
    return apply(
        new PoolEvent.CreationFailed(worker, pool.incarnation(worker), "start failed", now));
  }

  /** The current incarnation of {@code worker} stopped with {@code exit}. */
  List<Effect> stopped(String worker, Exit exit) {
    return apply(new PoolEvent.WorkerStopped(worker, pool.incarnation(worker), exit, "cause", now));
  }

  List<Effect> crash(String worker) {
    return stopped(worker, Exit.CRASH);
  }

  /**
   * Time passes to {@code at}: every timer due by then fires, earliest first (in the order
   * started among equals), as the runtime would fire them; returns all their effects.
   */
  List<Effect> tick(long at) {
    at(at);
    List<Effect> effects = new ArrayList<>();
    for (Timer due = timers.nextDue(now); due != null; due = timers.nextDue(now)) {
      timers.remove(due);
      effects.addAll(apply(new PoolEvent.TimerFired(due, now)));
    }
    return effects;
  }

  List<Effect> cancel(String job) {
    return apply(new PoolEvent.Cancel(job, now));
  }

  List<Effect> rebalance(String key, String worker) {
    return apply(new PoolEvent.Rebalance(key, worker, now));
  }

  List<Effect> stopRequested() {
    return apply(new PoolEvent.StopRequested(now));
  }

  List<Effect> register(String worker, Integer maxConcurrency) {
    return apply(new PoolEvent.WorkerRegistered(worker, maxConcurrency, now));
  }

  List<Effect> advertise(String worker, int maxConcurrency) {
    return apply(new PoolEvent.CapacityAdvertised(worker, maxConcurrency, now));
  }

  /** Host {@code host} registers from {@code node} with slots {@code <host>/w-0 …}. */
  List<Effect> hostRegistered(String host, String node, int slots, int maxConcurrency) {
    List<SlotSpec> specs = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      specs.add(new SlotSpec(host + "/w-" + i, maxConcurrency));
    }
    return apply(new PoolEvent.HostRegistered(host, node, specs, now));
  }

  /** Registers {@code host} and creates its slots' first incarnations: they are IDLE. */
  List<Effect> hostUp(String host, int slots, int maxConcurrency) {
    List<Effect> effects = new ArrayList<>(hostRegistered(host, "node-" + host, slots,
        maxConcurrency));
    for (int i = 0; i < slots; i++) {
      effects.addAll(created(host + "/w-" + i));
    }
    return effects;
  }

  List<Effect> hostLost(String host) {
    return apply(new PoolEvent.HostLost(host, "node left the cluster", now));
  }

  List<Effect> hostDeregistered(String host) {
    return apply(new PoolEvent.HostDeregistered(host, now));
  }

  List<Effect> deregister(String worker) {
    return apply(new PoolEvent.WorkerDeregistered(worker, now));
  }

  /** What the store holds now: the records replayed on the image this pool started from. */
  DurableImage storedImage() {
    return ledger.image(pool.settings().term());
  }

  /**
   * A3: this pool's coordinator is gone; a pool of the next term starts and recovers from what
   * the store holds. The returned fixture carries on (same clock, same open jobs); its recovery's
   * effects are {@link #recoveryEffects()}.
   */
  Fixture takeOver() {
    return takeOver(null);
  }

  /**
   * {@link #takeOver()}, the store also holding {@code totals}, the counters of the last write
   * (T3 in docs/rules.md; null: none).
   */
  Fixture takeOver(Counters totals) {
    return takeOver(totals, false);
  }

  /**
   * {@link #takeOver()} by a pool whose configured slots were created before it recovered (the
   * runtime recovers first, but the core does not require it).
   */
  Fixture takeOverWithSlotsUp() {
    return takeOver(null, true);
  }

  private Fixture takeOver(Counters totals, boolean slotsUp) {
    Fixture next = new Fixture(this, storedImage());
    if (slotsUp) {
      for (String id : next.pool.slotIds()) {
        next.created(id);
      }
    }
    next.recoveryEffects = next.apply(new PoolEvent.Recover(storedImage(), totals, now));
    return next;
  }

  /**
   * {@link #takeOver()} by a pool configured differently: its settings are the next term's
   * changed by {@code change}.
   */
  Fixture takeOverAs(UnaryOperator<PoolSettings> change) {
    Fixture next = new Fixture(this, storedImage(), change);
    next.recoveryEffects = next.apply(new PoolEvent.Recover(storedImage(), null, now));
    return next;
  }

  /**
   * {@link #takeOver()} from {@code image} instead of what this pool recorded: a store written by
   * hand, for images no run of this fixture makes. The image's jobs are open.
   */
  Fixture takeOverFrom(DurableImage image) {
    Fixture next = new Fixture(this, image);
    image.jobs().forEach(job -> next.open.add(job.job()));
    next.recoveryEffects = next.apply(new PoolEvent.Recover(image, null, now));
    return next;
  }

  List<Effect> recoveryEffects() {
    return recoveryEffects;
  }

  /** Every record the pool emitted since it started (or recovered). */
  List<DurableRecord> records() {
    return only(log, Effect.Persist.class).stream().map(Effect.Persist::record).toList();
  }

  void checkInvariants() {
    PoolInvariants.check(pool);
  }

  // ---- reading -------------------------------------------------------------------------------

  PoolSnapshot snapshot() {
    return pool.snapshot(now);
  }

  PoolSnapshot.SlotStatus slot(String id) {
    return snapshot().slots().stream().filter(s -> s.id().equals(id)).findFirst()
        .orElseThrow(() -> new AssertionError("no slot " + id + " in the snapshot"));
  }

  Counters counters() {
    return snapshot().counters();
  }

  /** Every effect applied so far (not the start effects). */
  List<Effect> log() {
    return log;
  }

  List<PoolError> refusals() {
    return refusals;
  }

  /** Jobs accepted and not yet answered terminally, as seen from the answers. */
  Set<String> open() {
    return open;
  }

  /** The latest assignment of {@code job}. */
  Effect.Assign assignment(String job) {
    Effect.Assign a = lastAssign.get(job);
    if (a == null) {
      throw new AssertionError("job " + job + " was never assigned");
    }
    return a;
  }

  long token(String job) {
    return assignment(job).assignment();
  }

  String workerOf(String job) {
    return assignment(job).worker();
  }

  /** Every answer about {@code job} so far, in order. */
  List<Outcome> outcomesFor(String job) {
    List<Outcome> found = new ArrayList<>();
    for (Outcome outcome : outcomes(log)) {
      if (outcome.job().equals(job)) {
        found.add(outcome);
      }
    }
    return found;
  }

  /** The one terminal answer of {@code job}; fails unless there is exactly one. */
  Outcome terminal(String job) {
    List<Outcome> terminal = outcomesFor(job).stream()
        .filter(o -> o.terminal() && !(o instanceof Outcome.Rejected)).toList();
    assertThat(terminal).as("terminal answers of " + job).hasSize(1);
    return terminal.get(0);
  }

  Interruption interruptionOf(String job) {
    Outcome outcome = terminal(job);
    assertThat(outcome).isInstanceOf(Outcome.Interrupted.class);
    return ((Outcome.Interrupted) outcome).reason();
  }

  // ---- extracting from effects ---------------------------------------------------------------

  static <T> List<T> only(List<Effect> effects, Class<T> type) {
    return effects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  static List<Outcome> outcomes(List<Effect> effects) {
    return only(effects, Effect.Respond.class).stream().map(Effect.Respond::outcome).toList();
  }

  static List<Effect.Assign> assigns(List<Effect> effects) {
    return only(effects, Effect.Assign.class);
  }

  /** "job@worker" for each assignment, in order. */
  static List<String> placed(List<Effect> effects) {
    return assigns(effects).stream().map(a -> a.job() + "@" + a.worker()).toList();
  }

  static List<Notice> notices(List<Effect> effects) {
    return only(effects, Effect.Publish.class).stream().map(Effect.Publish::notice).toList();
  }

  static <T extends Notice> List<T> notices(List<Effect> effects, Class<T> type) {
    return notices(effects).stream().filter(type::isInstance).map(type::cast).toList();
  }

  static Outcome.Rejected rejection(List<Effect> effects) {
    List<Outcome> outcomes = outcomes(effects);
    assertThat(outcomes).hasSize(1).first().isInstanceOf(Outcome.Rejected.class);
    return (Outcome.Rejected) outcomes.get(0);
  }
}
