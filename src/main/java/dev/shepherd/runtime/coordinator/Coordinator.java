package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolInvariants;
import dev.shepherd.core.PoolSize;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import dev.shepherd.core.Transition;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.slot.Deployments;
import dev.shepherd.runtime.slot.ResultCheck;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.Scheduler;
import dev.shepherd.runtime.time.WallTimes;
import dev.shepherd.runtime.trace.JobTrace;
import dev.shepherd.runtime.trace.JobTraces;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.Responder;
import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one pool on one Vert.x context: decodes nothing, decides nothing. It feeds events to the
 * core's {@link Pool#apply} and hands the effects to the {@link EffectInterpreter}. All pool state
 * is touched on this context only; other threads hand work in through the {@link Inbox}, and
 * everything outside the runtime reaches the pool through the in-JVM handle that {@code
 * access.LocalPools} keeps for it.
 *
 * <p>The coordinator of a highly available pool ({@link #lead}) lets its effects out through a
 * {@link DurableGate}: each waits until the records before it are written to the cluster under
 * this coordinator's term (A3 in docs/rules.md); a failed write makes it step down, and {@link
 * #abandon} stops it.
 */
public final class Coordinator {
  private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
  /** How long a stopped pool waits for its incarnations to undeploy. */
  public static final long UNDEPLOY_GRACE_MS = 5_000;

  private final Vertx vertx;
  private final Context context;
  private final RuntimeClock clock;
  /** {@link #clock} as the turns read it, once a batch ({@link #now}). */
  private final TurnClock turnClock;
  private final Scheduler scheduler;
  private final Executor turns;
  private final Sender sender;
  private final PoolConfig config;
  private final Pool pool;
  private final Inbox inbox;
  private final Outbox outbox;
  private final WireReplies replies;
  private final SlotMembership slots;
  private final List<PoolObserver> observers = new CopyOnWriteArrayList<>();
  private final EffectInterpreter interpreter;
  private final Promise<Void> stopped = Promise.promise();
  private final Timers timers;
  /**
   * Lookups, waits for outcomes and the dead-letter set, as callers reach them (J5, J6 in
   * docs/rules.md).
   */
  private final LookupsAndDeadLetters jobs;
  /** The throwables behind failures of local slots, until their jobs are answered. */
  private final FailureCauses causes = new FailureCauses();
  private final FlowOperations flow = new FlowOperations(this);
  /** Takes the batch form of {@code <prefix>.completed} (worker hosts), when something does. */
  private Handler<Message<Object>> completionBatches;
  private long statsTimer = -1;
  /**
   * What lets a highly available pool's effects out (A3 in docs/rules.md); null for other pools.
   */
  private DurableLeader leader;
  /** The traces of its jobs (T1 in docs/rules.md); null while its Vert.x does not trace. */
  private final JobTraces traces;

  public Coordinator(Vertx vertx, Context context, PoolConfig config) {
    this(vertx, context, config, PoolPorts.of(vertx, context));
  }

  /**
   * A coordinator on {@code ports}: Vert.x's in production; the failover simulation's, with
   * {@code vertx} and {@code context} null (its local slots deploy through the simulation's
   * {@code Deployments}).
   */
  public Coordinator(Vertx vertx, Context context, PoolConfig config, PoolPorts ports) {
    this.vertx = vertx;
    this.context = context;
    this.clock = ports.clock();
    this.turnClock = new TurnClock(clock);
    boolean callerRuns = CallerRuns.enabled() && (vertx == null || !vertx.isClustered());
    // With caller-runs on, every entry is a turn of the inbox: the context's own tasks (timers,
    // end-of-turn flushes) as much as other threads' hand-ins.
    this.turns = callerRuns ? this::execute : ports.turns();
    this.scheduler = callerRuns ? new TurnScheduler(ports.scheduler(), this::execute)
        : ports.scheduler();
    this.sender = ports.sender();
    this.config = config;
    this.pool = Pool.create(config.settings());
    // With caller-runs on, every entry is a turn and each turn ends with the outbox's flush: no
    // flush of its own is queued, so a turn's hand-overs leave together, once. A pool that keeps
    // its turns on its context ({@link #lead}) queues it as before.
    this.outbox = new Outbox(this::flushLater);
    this.inbox = new Inbox(ports.turns(), turnClock::start, this::endOfTurn, callerRuns);
    this.replies = WireReplies.of(vertx, this::flushLater);
    this.slots = new SlotMembership(this, config, ports.deployments(), pool);
    this.interpreter = new EffectInterpreter(this);
    this.timers = new Timers(scheduler, turnClock::fresh, this::apply);
    this.jobs = new LookupsAndDeadLetters(this, pool);
    this.traces = JobTraces.of(vertx, config.name(), clock::wallMs);
  }

  public String name() {
    return config.name();
  }

  public PoolConfig config() {
    return config;
  }

  public Vertx vertx() {
    return vertx;
  }

  /** The context all of the pool's state lives on. */
  public Context context() {
    return context;
  }

  /** The clock the pool runs on: {@link #now} is its monotonic time. */
  public RuntimeClock clock() {
    return clock;
  }

  /** Timers on the coordinator's context, on the pool's clock. */
  public Scheduler scheduler() {
    return scheduler;
  }

  /** Runs a task on the coordinator's context after what is queued there (its next turn). */
  public Executor turns() {
    return turns;
  }

  /** What the coordinator sends on: answers to reply addresses, commands to worker hosts. */
  public Sender sender() {
    return sender;
  }

  /** The traces of the pool's jobs (T1 in docs/rules.md), or null: tracing is off. */
  public JobTraces traces() {
    return traces;
  }

  public Timers timers() {
    return timers;
  }

  public Outbox outbox() {
    return outbox;
  }

  /** How replies to bus requests are written ({@link WireReplies}). */
  public WireReplies replies() {
    return replies;
  }

  public Map<String, SlotHandle> slots() {
    return slots.handles();
  }

  List<PoolObserver> observers() {
    return observers;
  }

  public FailureCauses causes() {
    return causes;
  }

  /** An operator's flow controls (F1-F5 in docs/rules.md): pause, resume, groups. */
  public FlowOperations flow() {
    return flow;
  }

  public LookupsAndDeadLetters jobs() {
    return jobs;
  }

  /** Callers waiting for held jobs' outcomes (J6 in docs/rules.md). */
  public JobWaiters waiters() {
    return jobs.waiters();
  }

  /** Adds an observer (metrics, live view); from any thread. */
  public void observe(PoolObserver observer) {
    observers.add(observer);
  }

  public void unobserve(PoolObserver observer) {
    observers.remove(observer);
  }

  /**
   * Runs {@code task} as a turn of the pool's state, batched with other hand-ins; any thread. With
   * caller-runs on ({@link CallerRuns}) the calling thread may run the turn itself.
   */
  public void execute(Runnable task) {
    inbox.offer(task);
  }

  /**
   * The end of every turn: the outbox's hand-overs leave, and the inbox learns whether the pool
   * is quiet: it holds at most one unanswered job per slot. Only then does a caller's own turn
   * save crossings (a job goes straight from its submitter to a slot and back); with more jobs in
   * flight the hand-ins come faster than turns end, and the context's turns, each a batch of them
   * with one hand-over per target, cost less than a turn of one task per caller.
   */
  private void endOfTurn() {
    turnClock.end();
    replies.flush();
    outbox.flush();
    inbox.quiet(pool.unanswered() <= slots.handles().size());
  }

  /**
   * Queues an end-of-turn flush (the outbox's, the wire replies'), unless every turn ends with it
   * anyway.
   */
  private void flushLater(Runnable flush) {
    if (!inbox.callerRuns()) {
      turns.execute(flush);
    }
  }

  /**
   * {@code handler} as an entry into the pool's state: itself when turns run on the context only,
   * else a handler that runs it as a turn ({@link #execute}). Every bus endpoint of the pool is
   * registered through it.
   */
  public <T> Handler<T> asTurn(Handler<T> handler) {
    if (!inbox.callerRuns()) {
      return handler;
    }
    Consumer<T> entry = handler::handle;
    return value -> {
      if (context != null && Vertx.currentContext() == context) {
        inbox.onContext(entry, value);
      } else {
        execute(() -> handler.handle(value));
      }
    };
  }

  /**
   * Applies one event on the coordinator's context and runs its effects. Under {@code -ea} the
   * pool's invariants ({@link PoolInvariants}) are checked now and then ({@link
   * #checkInvariants}); a broken one throws {@link AssertionError} naming it.
   */
  public Transition apply(PoolEvent event) {
    Transition transition = pool.apply(event);
    assert checkInvariants();
    if (transition instanceof Transition.Applied applied) {
      run(applied.effects());
    }
    return transition;
  }

  /** The fewest events between two checks of the invariants under {@code -ea}. */
  static final int INVARIANTS_EVERY = 16;
  private int uncheckedEvents;

  /**
   * Checks {@link PoolInvariants} after {@link #INVARIANTS_EVERY} events plus one per unanswered
   * job: the check is O(state), so spacing it by the state's size keeps its cost per event
   * constant (a pool holding 100,000 jobs is not checked 100,000 times). True, or throws.
   */
  private boolean checkInvariants() {
    if (++uncheckedEvents >= INVARIANTS_EVERY + pool.unanswered()) {
      uncheckedEvents = 0;
      PoolInvariants.check(pool);
    }
    return true;
  }

  /**
   * Runs effects now, or, for a durable pool, once their records are written (A3 in docs/rules.md).
   */
  private void run(List<Effect> effects) {
    if (leader == null) {
      interpreter.run(effects);
    } else {
      leader.offer(effects);
    }
  }

  /** Runs one effect the {@link DurableLeader} let out. */
  void release(Effect effect) {
    interpreter.run(effect);
  }

  /** Answers {@code respond}, which the {@link DurableLeader} let out; {@code left} as there. */
  void release(Effect.Respond respond, Runnable left) {
    interpreter.respond(respond, left);
  }

  public Pool pool() {
    return pool;
  }

  // ---- high availability (A1-A3) --------------------------------------------------------------

  /**
   * Makes this (durable) pool the leader of {@code term}, before {@link #start}: its effects go
   * through a {@link DurableGate} whose lease started at {@code claimedAt}, its records are
   * written through {@code leadership}, and {@code onStepDown} hears (on this context) when a
   * write fails: it must then abandon the pool.
   */
  public void lead(long term, long claimedAt, long leaseMs, Leadership leadership,
      Consumer<String> onStepDown) {
    // Its leadership's callbacks reach the pool on its context, not as turns.
    inbox.onContextOnly();
    leader = new DurableLeader(this, term, claimedAt, leaseMs, leadership, onStepDown);
  }

  /**
   * Rebuilds the pool from what an earlier coordinator left (A3 in docs/rules.md), right after
   * {@link #start} (see {@link DurableLeader#recover}).
   */
  public void recover(DurableLog.Recovered recovered) {
    recover(recovered, Map.of());
  }

  /**
   * The same, the recovered jobs' spans continuing under the submitters' traces the journal kept
   * ({@code traces}, job id to trace; T1 in docs/rules.md).
   */
  public void recover(DurableLog.Recovered recovered, Map<String, JournalTrace> traces) {
    leader.recover(recovered, traces);
  }

  /**
   * Stops acting at once (A2 in docs/rules.md): nothing leaves any more, timers stop, and this
   * node's own incarnations are undeployed; the pool's state stays behind, unused. For a leader
   * that stepped down, or a node that stops and leaves the pool to a standby.
   */
  public void abandon() {
    if (leader != null) {
      leader.close();
    }
    scheduler.cancel(statsTimer);
    timers.close();
    jobs.waiters().endAll();
    for (PoolSnapshot.SlotStatus slot : pool.snapshot(now()).slots()) {
      SlotHandle handle = slots.handles().get(slot.id());
      if (slot.host() == null && handle instanceof LocalSlot && slot.incarnation() > 0) {
        handle.stop(slot.incarnation(), Exit.NODE_LOST);
      }
    }
  }

  /** The term this coordinator leads (0 for a pool without high availability). */
  public long term() {
    return leader == null ? 0 : leader.term();
  }

  /**
   * The pool's monotonic time ({@link RuntimeClock#monotonicMs()}): what every event of this
   * pool carries and every deadline of it is measured on; within a batch of the inbox, the
   * batch's reading. Never a time to show: {@link WallTimes} converts what leaves the
   * coordinator.
   */
  public long now() {
    return turnClock.now();
  }

  /**
   * Epoch milliseconds as the wall clock says, for what a person reads only (never a deadline):
   * within a batch of the inbox, one reading shared by the batch. The coordinator's context (or
   * the thread running its turn) only.
   */
  public long wallNow() {
    return turnClock.wallNow();
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  /** Starts the pool: a turn of its own when callers run turns ({@link CallerRuns}). */
  public void start() {
    if (inbox.callerRuns()) {
      execute(this::startNow);
    } else {
      startNow();
    }
  }

  private void startNow() {
    run(pool.start());
    statsTimer = scheduler.every(500, () -> {
      PoolSnapshot snapshot = snapshot();
      List<PoolSnapshot.GroupStatus> configured = flow().unlisted(snapshot);
      observers.forEach(o -> {
        o.onConfiguredGroups(configured);
        o.onStats(snapshot);
      });
    });
  }


  /**
   * Graceful stop (P16 in docs/rules.md); completes once every job is answered and every
   * incarnation is gone.
   */
  public Future<Void> stop() {
    if (inbox.callerRuns()) {
      execute(() -> apply(new PoolEvent.StopRequested(now())));
    } else {
      apply(new PoolEvent.StopRequested(now()));
    }
    return stopped.future();
  }

  /** Called by the interpreter when the pool reached STOPPED. */
  void onStopped() {
    timers.close();
    scheduler.cancel(statsTimer);
    jobs.waiters().endAll();
    List<Future<Void>> undeploys = new ArrayList<>();
    slots.handles().values().forEach(slot -> undeploys.add(slot.undeployed()));
    Future.join(undeploys).onComplete(ar -> stopped.tryComplete());
    // An incarnation whose thread is blocked (a WORKER stuck in a job) cannot run its stop; the
    // pool has answered everything by now, so it does not wait for such a one forever.
    scheduler.after(UNDEPLOY_GRACE_MS, () -> {
      if (stopped.tryComplete()) {
        LOG.warn("pool {}: stopped; some incarnations did not undeploy within {} ms (a worker"
            + " thread is blocked in a job)", name(), UNDEPLOY_GRACE_MS);
      }
    });
  }

  public PoolState state() {
    return pool.state();
  }

  /**
   * Called with a refused transition for a fact from a local slot: counted by the core, never
   * answered. A stale completion (one whose assignment token no longer matches a live assignment
   * of its slot, C-rules) is said apart from the other refused facts.
   */
  void refusedFact(PoolEvent event, PoolError error) {
    if (stale(error)) {
      LOG.debug("pool {}: ignored completion: {}", name(), LogText.quote(error.message()));
    } else {
      LOG.debug("pool {}: ignored fact {}: {}", name(), event.getClass().getSimpleName(),
          LogText.quote(error.message()));
    }
  }

  /**
   * A stale completion: its token matches no live assignment of the slot, which holds others or
   * none at all (the core counts both in {@code staleCompletions}).
   */
  private static boolean stale(PoolError error) {
    return error instanceof PoolError.StaleCompletion
        || error instanceof PoolError.CompletionForUnavailableWorker;
  }

  // ---- requests (coordinator context) ---------------------------------------------------------

  /**
   * Submits on the coordinator's context; {@code responder} receives the answers. The submit's
   * own retries (J3 in docs/rules.md) are resolved here against the pool's, field by field; its
   * delay was checked against {@code maxDelayMs} by whoever handed it in ({@link
   * RequestDecoder#checkForPool}).
   */
  public void submit(Requests.Submit request, Responder responder) {
    submit(request, responder, traces == null ? null : traces.capture());
  }

  /**
   * {@link #submit(Requests.Submit, Responder)} under {@code trace}, the submitter's trace captured
   * where the submit was made (T1 in docs/rules.md; null: none).
   */
  public void submit(Requests.Submit request, Responder responder, JobTrace trace) {
    if (traces != null) {
      traces.submitted(trace, responder);
    }
    FailureRetry retry = request.retry() == null ? null
        : request.retry().resolve(config.settings().jobs().retryFailures());
    apply(new PoolEvent.Submit(request.job(), request.payload(), request.key(), responder,
        request.timeoutMs(), request.bytes(), request.delayMs(), retry, request.group(),
        request.priority(), request.progressTimeoutMs(), now()));
  }

  /** A completion reported over the bus: null, or the refusal. */
  public PoolError completed(Requests.Completed request) {
    JobError unencodable = request.error() == null ? ResultCheck.problem(request.result()) : null;
    long bytes = request.error() == null && unencodable == null
        ? ResultCheck.bytes(request.result()) : 0;
    Transition t = apply(new PoolEvent.Completed(request.worker(), request.assignment(),
        unencodable == null ? request.result() : null,
        unencodable == null ? request.error() : unencodable, bytes, now()));
    return t instanceof Transition.Refused refused ? refused.error() : null;
  }

  /** A rate-limited answer reported over the bus (F4 in docs/rules.md): null, or the refusal. */
  public PoolError rateLimited(Requests.RateLimited request) {
    Transition t = apply(new PoolEvent.RateLimited(request.worker(), request.assignment(),
        request.holdMs(), now()));
    return t instanceof Transition.Refused refused ? refused.error() : null;
  }

  public PoolError rebalance(Requests.Rebalance request) {
    Transition t = apply(new PoolEvent.Rebalance(request.key(), request.worker(), now()));
    return t instanceof Transition.Refused refused ? refused.error() : null;
  }

  public boolean cancel(Requests.Cancel request) {
    Transition t = apply(new PoolEvent.Cancel(request.job(), now()));
    return t.verdict() instanceof Transition.Verdict.Cancelled;
  }

  /**
   * An operator's revive of a retired slot, on the coordinator's context: the slot's new
   * incarnation, or a failed future ({@link PoolErrorException}: {@code REVIVE_REFUSED}, {@code
   * UNKNOWN_WORKER}) that changed nothing.
   */
  public Future<Integer> revive(Requests.Revive request) {
    Transition t = apply(new PoolEvent.Revive(request.worker(), now()));
    if (t instanceof Transition.Refused refused) {
      return Future.failedFuture(new PoolErrorException(refused.error()));
    }
    if (t.verdict() instanceof Transition.Verdict.Revived revived) {
      return Future.succeededFuture(revived.incarnation());
    }
    throw new IllegalStateException("a revive of " + request.worker() + " revived nothing");
  }

  /** F6 (docs/rules.md): an operator resizes the pool's own slots ({@link SlotMembership}). */
  public Future<PoolSize> resize(Requests.Resize request) {
    return slots.resize(request);
  }

  /** F6 (docs/rules.md): the local slot {@code worker} left the pool. */
  void slotLeft(String worker) {
    slots.left(worker);
  }

  /** The pool's status as people read it: its times in wall time ({@link WallTimes}). */
  public PoolSnapshot snapshot() {
    PoolSnapshot snapshot = WallTimes.snapshot(pool.snapshot(now()), clock);
    return leader == null ? snapshot : snapshot.withHa(leader.status());
  }

  /**
   * A completion of {@code job} from a local slot, on the coordinator's context; {@code failure}
   * is the throwable behind {@code error} (null when none or when the error replaced a result),
   * kept until the job's answer for an in-JVM submitter ({@link FailureCauses}).
   */
  void localCompleted(String worker, long assignment, Object result, JobError error,
      long bytes, String job, Throwable failure) {
    PoolEvent.Completed event = new PoolEvent.Completed(worker, assignment, result, error, bytes,
        now());
    // Kept before the event is applied: its answer may be sent within this very step.
    if (failure != null) {
      causes.failed(job, error, failure);
    }
    Transition t = apply(event);
    if (t instanceof Transition.Refused refused) {
      if (failure != null) {
        causes.forget(job);
      }
      refusedFact(event, refused.error());
    }
  }

  /**
   * A local slot's handler answered "rate limited for {@code holdMs}" (F4 in docs/rules.md), on
   * the coordinator's context; refused like a stale completion when the assignment is gone.
   */
  void localRateLimited(String worker, long assignment, long holdMs) {
    localFact(new PoolEvent.RateLimited(worker, assignment, holdMs, now()));
  }

  /** A fact (created, failed, stopped) from a local slot, on the coordinator's context. */
  void localFact(PoolEvent event) {
    Transition t = apply(event);
    if (t instanceof Transition.Refused refused) {
      refusedFact(event, refused.error());
    }
  }

  /** An incarnation is being undeployed from outside the pool: the pool is going away. */
  void externalUndeploy() {
    if (pool.state() == PoolState.RUNNING) {
      LOG.info("pool {}: its workers are being undeployed; stopping gracefully", name());
      apply(new PoolEvent.StopRequested(now()));
    }
  }

  // ---- slots of other kinds (coordinator context) ---------------------------------------------

  /** Gives the pool the handle of a slot it was not configured with ({@link SlotMembership}). */
  boolean addSlot(SlotHandle handle) {
    return slots.add(handle);
  }

  /** Takes back a handle given with {@link #addSlot} that the pool never came to know. */
  void removeSlot(SlotHandle handle) {
    slots.remove(handle);
  }

  /**
   * Applies a fact reported from outside the JVM's own slots (a worker host's report, its
   * registration, loss or departure) and returns the refusal, or null. A refused completion is
   * stale, as a local one is.
   */
  PoolError report(PoolEvent fact) {
    Transition t = apply(fact);
    if (t instanceof Transition.Refused refused) {
      refusedFact(fact, refused.error());
      return refused.error();
    }
    return null;
  }

  /**
   * Hands the batch form of {@code <prefix>.completed} (a body with {@code host} or {@code
   * items}) to {@code handler}, on the coordinator's context.
   */
  void handleCompletionBatches(Handler<Message<Object>> handler) {
    this.completionBatches = handler;
  }

  /** The pool as an extension sees it ({@link PoolExtension#start}). */
  public HostedPool hosted() {
    return new CoordinatorHosting(this);
  }

  public Handler<Message<Object>> completionBatches() {
    return completionBatches;
  }
}
