package dev.shepherd.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Plays the runtime around a pool for property tests: it reads the effects of each transition the
 * way the coordinator's interpreter would (which incarnations are being deployed or are up, which
 * assignments are live, when to wake), and from that view generates the next event. Most events
 * are valid facts (complete a live assignment, create a deployed incarnation, stop a running
 * one); a fraction are adversarial (stale and duplicate completions, facts for old incarnations,
 * unknown workers, zero capacities, a clock that stands still or jumps).
 *
 * <p>It reads nothing but events and effects, so the same driver feeds the core and the
 * reference model.
 */
final class PoolDriver {

  /** The kinds of event the driver generates, weighted by a {@link Profile}. */
  enum Kind {
    SUBMIT, COMPLETE, COMPLETE_BAD, CREATE, CREATE_FAIL, CREATE_BAD, STOP, STOP_BAD, TICK, CANCEL,
    REBALANCE, CAPACITY, REGISTER, DEREGISTER, STOP_REQUESTED, HOST_REGISTER, HOST_LOST,
    HOST_DEREGISTER, REVIVE, FAILOVER, RECOVER_BAD, REPLAY, DISCARD, HOST_HEARD,
    /** Section 11 (F1-F5): group overrides, pauses of a group or the pool, 429 answers. */
    SET_GROUP, PAUSE, RESUME, RATE_LIMITED,
    /** F6: resizes of the pool's own slots. */
    RESIZE,
    /** T2: progress reports of live assignments, stale ones and unknown workers' now and then. */
    PROGRESS
  }

  /** Groups a flow profile's submits use (and one more, now and then, never configured). */
  static final int GROUPS = 4;

  /**
   * Event weights (per {@link Kind}, in declaration order) and the share of keyed submits. A
   * profile that weighs any flow kind ({@link Kind#SET_GROUP} to {@link Kind#RATE_LIMITED}) also gives its submits groups
   * and priorities.
   */
  record Profile(String name, int[] weights, int keyedPercent) {
    Profile {
      if (weights.length != Kind.values().length) {
        throw new IllegalArgumentException("one weight per kind");
      }
    }

    boolean flow() {
      for (int i = Kind.SET_GROUP.ordinal(); i <= Kind.RATE_LIMITED.ordinal(); i++) {
        if (weights[i] > 0) {
          return true;
        }
      }
      return false;
    }
  }

  static final String[] EXTRA_IDS = {"job-1", "job-2", "job-3"};
  static final int JOB_IDS = 12;
  static final int KEYS = 7;
  static final int REMOTE_IDS = 4;
  static final int HOSTS = 3;

  private final SplittableRandom rnd;
  private final Profile profile;
  private final PoolSettings settings;
  private final int[] cumulative;
  private long now;
  private int serial;

  /** Incarnations deployed and not yet resolved, by slot. */
  private final Map<String, Integer> deploying = new LinkedHashMap<>();
  /** Incarnations created (or registered) and not stopped, by slot. */
  private final Map<String, Integer> up = new LinkedHashMap<>();
  /** The latest incarnation seen per slot. */
  private final Map<String, Integer> latest = new HashMap<>();
  /** Live assignment tokens per slot, in assignment order. */
  private final Map<String, LinkedHashSet<Long>> live = new LinkedHashMap<>();
  /** Tokens that ended (completed or interrupted), with their slot: material for stale facts. */
  private final List<Object[]> spent = new ArrayList<>();
  /** Accepted job ids not yet answered terminally. */
  private final LinkedHashSet<String> unanswered = new LinkedHashSet<>();
  /** Timers the pool started and has not cancelled. */
  private final PendingTimers timers = new PendingTimers();
  /** Timers that fired or were cancelled: material for stale fires. */
  private final List<Timer> spentTimers = new ArrayList<>();
  /** Every slot id the pool has had, configured and registered. */
  private final LinkedHashSet<String> known = new LinkedHashSet<>();
  private final LinkedHashSet<String> departed = new LinkedHashSet<>();
  /** The pool's own slot count the last applied resize set (F6): slots at or past it drain. */
  private int ownSize = Integer.MAX_VALUE;
  /** Worker hosts the pool knows: their node while UP, or null while LOST or gone. */
  private final Map<String, String> hostNodes = new LinkedHashMap<>();
  /** Each known host's slots. */
  private final Map<String, List<String>> hostSlots = new LinkedHashMap<>();
  private int nodeSerial;
  /** Jobs the dead-letter set holds, as its notices tell. */
  private final LinkedHashSet<String> dead = new LinkedHashSet<>();
  /** Slots the live view (PhaseChanged notices) shows as retired. */
  private final LinkedHashSet<String> retired = new LinkedHashSet<>();
  /**
   * The store of a durable pool: every record the current coordinator emitted, on the image it
   * recovered from. A failover hands its image to a coordinator of the next term.
   */
  private Ledger ledger;
  /** The current coordinator's term. */
  private long term;

  PoolDriver(SplittableRandom rnd, Profile profile, PoolSettings settings) {
    this.rnd = rnd;
    this.profile = profile;
    this.settings = settings;
    this.cumulative = new int[profile.weights().length];
    int sum = 0;
    for (int i = 0; i < cumulative.length; i++) {
      sum += profile.weights()[i];
      cumulative[i] = sum;
    }
    for (SlotSpec spec : settings.slots()) {
      known.add(spec.id());
    }
    this.term = settings.term();
    this.ledger = new Ledger(DurableImage.empty(term));
  }

  /** The term of the coordinator the driver talks to. */
  long term() {
    return term;
  }

  long now() {
    return now;
  }

  /** The effects of {@code Pool.start()}. */
  void started(List<Effect> effects) {
    for (Effect effect : effects) {
      observeEffect(effect);
    }
  }

  // ---- generation ------------------------------------------------------------------------------

  PoolEvent next() {
    if (rnd.nextInt(4) == 0) {
      now += rnd.nextInt(3);
    }
    int draw = rnd.nextInt(cumulative[cumulative.length - 1]);
    Kind kind = Kind.values()[0];
    for (int i = 0; i < cumulative.length; i++) {
      if (draw < cumulative[i]) {
        kind = Kind.values()[i];
        break;
      }
    }
    if (everySlotRetired() && rnd.nextInt(5) == 0) {
      kind = Kind.REGISTER;
    }
    PoolEvent event = generate(kind);
    return event != null ? event : tick();
  }

  private PoolEvent generate(Kind kind) {
    return switch (kind) {
      case SUBMIT -> submit();
      case COMPLETE -> complete();
      case COMPLETE_BAD -> badCompletion();
      case CREATE -> pick(deploying) == null ? null : created(pick(deploying));
      case CREATE_FAIL -> creationFailed();
      case CREATE_BAD -> badCreation();
      case STOP -> stop();
      case STOP_BAD -> badStop();
      case TICK -> tick();
      case CANCEL -> cancel();
      case REBALANCE -> rebalance();
      case CAPACITY -> capacity();
      case REGISTER -> register();
      case DEREGISTER -> new PoolEvent.WorkerDeregistered(anyWorker(10), now);
      case STOP_REQUESTED -> new PoolEvent.StopRequested(now);
      case HOST_REGISTER -> hostRegister();
      case HOST_LOST -> new PoolEvent.HostLost(anyHost(), "lost", now);
      case HOST_DEREGISTER -> new PoolEvent.HostDeregistered(anyHost(), now);
      case REVIVE -> new PoolEvent.Revive(anyWorker(10), now);
      case FAILOVER -> failover();
      case RECOVER_BAD -> new PoolEvent.Recover(ledger.image(term + 1 + rnd.nextInt(3)), now);
      case REPLAY -> new PoolEvent.ReplayDead(deadJob(), "rr" + (++serial), now);
      case DISCARD -> new PoolEvent.DiscardDead(deadJob(), now);
      case HOST_HEARD -> new PoolEvent.HostHeard(anyHost(), now);
      case SET_GROUP -> new PoolEvent.SetGroup(group(), groupSettings(), now);
      case PAUSE -> new PoolEvent.Pause(rnd.nextInt(3) == 0 ? null : group(), now);
      case RESUME -> new PoolEvent.Resume(rnd.nextInt(3) == 0 ? null : group(), now);
      case RATE_LIMITED -> rateLimited();
      case RESIZE -> resize();
      case PROGRESS -> progress();
    };
  }

  /** F6: an operator resizes the pool's own slots: 0 to 7 of capacity 1 to 3. */
  private PoolEvent resize() {
    int instances = rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(7);
    return new PoolEvent.Resize(instances, 1 + rnd.nextInt(3), now);
  }

  /**
   * The coordinator is replaced (A3): the store's image, of the current term, goes to a fresh
   * pool of the next term (the harness starts it; see {@link SequenceRunner.Harness}).
   */
  private PoolEvent failover() {
    if (!settings.durable()) {
      return null;
    }
    return new PoolEvent.Recover(ledger.image(term), now);
  }

  /** Whether {@code event} replaces the coordinator (rather than asking this one to recover). */
  static boolean isFailover(PoolEvent event, long currentTerm) {
    return event instanceof PoolEvent.Recover r && r.image().term() == currentTerm;
  }

  /** A dead-lettered job, mostly; sometimes one that is not in the set. */
  private String deadJob() {
    if (!dead.isEmpty() && rnd.nextInt(5) != 0) {
      return element(new ArrayList<>(dead));
    }
    return "j" + rnd.nextInt(JOB_IDS);
  }

  /** A group name: mostly one of a few, now and then a fresh one. */
  private String group() {
    return rnd.nextInt(10) == 0 ? "x" + (++serial) : "g" + rnd.nextInt(GROUPS);
  }

  /** A run-time override across the space, or its removal. */
  private GroupSettings groupSettings() {
    if (rnd.nextInt(6) == 0) {
      return null;
    }
    return new GroupSettings(
        rnd.nextInt(3) == 0 ? null : rnd.nextInt(3),
        rnd.nextInt(3) == 0 ? null : rnd.nextInt(4),
        rnd.nextInt(3) == 0 ? null : 1 + rnd.nextInt(4),
        rnd.nextInt(3) == 0 ? new RateLimit(1 + rnd.nextInt(2), 1 + rnd.nextInt(40)) : null,
        rnd.nextInt(3) == 0 ? Boolean.valueOf(rnd.nextBoolean()) : null);
  }

  /** T2: a live assignment reports progress, mostly; sometimes a stale one or a ghost. */
  private PoolEvent progress() {
    List<Object[]> candidates = liveAssignments();
    Object report = "progress-" + (++serial);
    long bytes = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(2_000);
    if (candidates.isEmpty() || rnd.nextInt(5) == 0) {
      if (!spent.isEmpty() && rnd.nextInt(4) > 0) {
        Object[] old = element(spent);
        return new PoolEvent.Progress((String) old[0], (Long) old[1], report, bytes, now);
      }
      return new PoolEvent.Progress("ghost", 1, report, bytes, now);
    }
    Object[] chosen = element(candidates);
    return new PoolEvent.Progress((String) chosen[0], (Long) chosen[1], report, bytes, now);
  }

  /** F4: a live assignment answered "rate limited", mostly; sometimes a stale one. */
  private PoolEvent rateLimited() {
    List<Object[]> candidates = liveAssignments();
    long hold = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(60);
    if (candidates.isEmpty() || rnd.nextInt(6) == 0) {
      if (!spent.isEmpty()) {
        Object[] old = element(spent);
        return new PoolEvent.RateLimited((String) old[0], (Long) old[1], hold, now);
      }
      return candidates.isEmpty() ? null
          : new PoolEvent.RateLimited("ghost", 1, hold, now);
    }
    Object[] chosen = element(candidates);
    return new PoolEvent.RateLimited((String) chosen[0], (Long) chosen[1], hold, now);
  }

  private PoolEvent submit() {
    int n = ++serial;
    String job;
    int idDraw = rnd.nextInt(100);
    if (idDraw < 30) {
      job = null;
    } else if (idDraw < 42 && !unanswered.isEmpty()) {
      job = element(new ArrayList<>(unanswered));
    } else if (idDraw < 47) {
      job = EXTRA_IDS[rnd.nextInt(EXTRA_IDS.length)];
    } else {
      job = "j" + rnd.nextInt(JOB_IDS);
    }
    String key = rnd.nextInt(100) < profile.keyedPercent() ? "k" + rnd.nextInt(KEYS) : null;
    long timeout = rnd.nextInt(100) < 85 ? 0 : 1 + rnd.nextInt(60);
    long bytes = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(12);
    long delay = rnd.nextInt(100) < 12 ? rnd.nextInt(80) : 0;
    FailureRetry retry = null;
    if (rnd.nextInt(100) < 10) {
      retry = new FailureRetry(1 + rnd.nextInt(3), rnd.nextBoolean() ? Backoff.NONE
          : new Backoff(1 + rnd.nextInt(20), 1.0 + rnd.nextInt(3) * 0.5, 100, rnd.nextInt(3) * 0.25));
    }
    // T2: a job's own progress timeout now and then.
    long progressTimeout = rnd.nextInt(100) < 8 ? 5 + rnd.nextInt(80) : 0;
    if (profile.flow()) {
      String group = rnd.nextInt(5) == 0 ? null : group();
      int priority = rnd.nextInt(3) == 0 ? rnd.nextInt(10) : PoolEvent.Submit.DEFAULT_PRIORITY;
      return new PoolEvent.Submit(job, "p" + n, key, "r" + n, timeout, bytes, delay, retry, group,
          priority, progressTimeout, now);
    }
    return new PoolEvent.Submit(job, "p" + n, key, "r" + n, timeout, bytes, delay, retry, null,
        PoolEvent.Submit.DEFAULT_PRIORITY, progressTimeout, now);
  }

  private PoolEvent complete() {
    List<Object[]> candidates = liveAssignments();
    if (candidates.isEmpty()) {
      return null;
    }
    Object[] chosen = element(candidates);
    return completion((String) chosen[0], (Long) chosen[1]);
  }

  private PoolEvent completion(String worker, long token) {
    int n = ++serial;
    JobError error = rnd.nextInt(5) == 0
        ? new JobError(500, "boom " + n, rnd.nextBoolean() ? "java.lang.IllegalStateException" : null)
        : null;
    return new PoolEvent.Completed(worker, token, error == null ? "res" + n : null, error,
        rnd.nextInt(8), now);
  }

  private PoolEvent badCompletion() {
    int variant = rnd.nextInt(5);
    if (variant == 0 && !spent.isEmpty()) {
      Object[] old = element(spent);
      return completion((String) old[0], (Long) old[1]);
    }
    if (variant == 1) {
      List<Object[]> candidates = liveAssignments();
      if (!candidates.isEmpty()) {
        Object[] chosen = element(candidates);
        return completion(anyWorker(0), (Long) chosen[1]);
      }
    }
    if (variant == 2) {
      return completion("ghost", 1 + rnd.nextInt(50));
    }
    return completion(anyWorker(0), (settings.term() << PoolSettings.TERM_SHIFT) + rnd.nextInt(80));
  }

  private PoolEvent created(Map.Entry<String, Integer> entry) {
    return new PoolEvent.WorkerCreated(entry.getKey(), entry.getValue(), now);
  }

  private PoolEvent creationFailed() {
    Map.Entry<String, Integer> entry = pick(deploying);
    return entry == null ? null
        : new PoolEvent.CreationFailed(entry.getKey(), entry.getValue(), "start failed", now);
  }

  private PoolEvent badCreation() {
    String worker = anyWorker(10);
    int incarnation = latest.getOrDefault(worker, 1) + rnd.nextInt(3) - 1;
    if (rnd.nextBoolean()) {
      return new PoolEvent.WorkerCreated(worker, incarnation, now);
    }
    return new PoolEvent.CreationFailed(worker, incarnation, "late failure", now);
  }

  private PoolEvent stop() {
    Map.Entry<String, Integer> entry = pick(up);
    if (entry == null) {
      return null;
    }
    return new PoolEvent.WorkerStopped(entry.getKey(), entry.getValue(), exit(), "stopped", now);
  }

  private Exit exit() {
    Exit[] exits = Exit.values();
    return exits[rnd.nextInt(exits.length)];
  }

  private PoolEvent badStop() {
    int variant = rnd.nextInt(3);
    Map.Entry<String, Integer> entry = variant == 0 ? pick(up) : variant == 1 ? pick(deploying)
        : null;
    if (entry != null) {
      int incarnation = variant == 0 ? entry.getValue() - 1 - rnd.nextInt(2) : entry.getValue();
      return new PoolEvent.WorkerStopped(entry.getKey(), incarnation, exit(), "late stop", now);
    }
    String worker = anyWorker(15);
    return new PoolEvent.WorkerStopped(worker, latest.getOrDefault(worker, 1), exit(), "odd", now);
  }

  /**
   * Time passes, and a timer fires as the runtime would fire it: the earliest one due, after a
   * small step, a jump to the next expiry, or a long jump; sometimes a stale one (fired or
   * cancelled before), which must change nothing; and when none is due, time just moves.
   */
  PoolEvent tick() {
    int draw = rnd.nextInt(100);
    if (draw < 10 && !spentTimers.isEmpty()) {
      return new PoolEvent.TimerFired(element(spentTimers), now);
    } else if (draw < 40) {
      now += 1 + rnd.nextInt(5);
    } else if (draw < 75) {
      Long next = timers.nextExpiry();
      now = next != null ? Math.max(now, next) : now + 1;
    } else if (draw < 95) {
      now += 10 + rnd.nextInt(200);
    } else {
      now += 1_000 + rnd.nextInt(100_000);
    }
    Timer due = timers.nextDue(now);
    if (due == null) {
      return new PoolEvent.TimerFired(spentTimers.isEmpty()
          ? new Timer.JobDeadline("ghost", 1) : element(spentTimers), now);
    }
    return fire(due);
  }

  private PoolEvent.TimerFired fire(Timer timer) {
    timers.remove(timer);
    spentTimers.add(timer);
    return new PoolEvent.TimerFired(timer, now);
  }

  private PoolEvent cancel() {
    String job = !unanswered.isEmpty() && rnd.nextInt(4) != 0
        ? element(new ArrayList<>(unanswered))
        : "j" + rnd.nextInt(JOB_IDS + 4);
    return new PoolEvent.Cancel(job, now);
  }

  private PoolEvent rebalance() {
    List<String> leaving = leaving();
    String worker = !leaving.isEmpty() && rnd.nextInt(3) == 0 ? element(leaving) : anyWorker(15);
    return new PoolEvent.Rebalance("k" + rnd.nextInt(KEYS), worker, now);
  }

  /** F6: the pool's own slots a shrink is draining (still there, past the size it set). */
  private List<String> leaving() {
    List<String> leaving = new ArrayList<>();
    for (String id : known) {
      if (id.startsWith("w-") && !departed.contains(id)
          && Integer.parseInt(id.substring(2)) >= ownSize) {
        leaving.add(id);
      }
    }
    return leaving;
  }

  private PoolEvent capacity() {
    int value = rnd.nextInt(100) < 12 ? 0 : 1 + rnd.nextInt(3);
    return new PoolEvent.CapacityAdvertised(anyWorker(8), value, now);
  }

  private PoolEvent register() {
    List<String> absent = new ArrayList<>();
    for (int i = 0; i < REMOTE_IDS; i++) {
      String id = "rw-" + i;
      if (!known.contains(id) || departed.contains(id)) {
        absent.add(id);
      }
    }
    boolean again = (absent.isEmpty() || rnd.nextInt(6) == 0) && !known.isEmpty();
    String worker = again ? element(new ArrayList<>(known)) : element(absent);
    int draw = rnd.nextInt(100);
    Integer capacity = draw < 35 ? null : draw < 43 ? 0 : 1 + rnd.nextInt(3);
    return new PoolEvent.WorkerRegistered(worker, capacity, now);
  }

  /**
   * A host registering: mostly an absent or lost one with one to three slots (sometimes fewer or
   * more than before); sometimes adversarial: a live host again from its own node (ignored) or
   * from another (DUPLICATE_HOST), a slot named twice, or a slot of the pool's own.
   */
  private PoolEvent hostRegister() {
    String host = "h" + rnd.nextInt(HOSTS);
    String node = hostNodes.get(host);
    int variant = rnd.nextInt(100);
    if (node != null && variant < 50) {
      return new PoolEvent.HostRegistered(host, variant < 25 ? node : "node-" + (++nodeSerial),
          hostSlotSpecs(host), now);
    }
    List<SlotSpec> specs = hostSlotSpecs(host);
    if (variant >= 95) {
      specs = new ArrayList<>(specs);
      specs.add(rnd.nextBoolean() ? specs.get(0) : new SlotSpec(anyWorker(0), 1));
    }
    return new PoolEvent.HostRegistered(host, "node-" + (++nodeSerial), specs, now);
  }

  private List<SlotSpec> hostSlotSpecs(String host) {
    int count = 1 + rnd.nextInt(3);
    List<SlotSpec> specs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int draw = rnd.nextInt(100);
      specs.add(new SlotSpec(host + "/w-" + i, draw < 15 ? null : 1 + rnd.nextInt(3)));
    }
    return specs;
  }

  private String anyHost() {
    return rnd.nextInt(10) == 0 ? "ghost-host" : "h" + rnd.nextInt(HOSTS);
  }

  /** What an operator would see: no slot can take work (P11); a remote worker may join. */
  private boolean everySlotRetired() {
    for (String worker : known) {
      if (!retired.contains(worker) && !departed.contains(worker)) {
        return false;
      }
    }
    return true;
  }

  /** A slot id the pool has had (departed ones included), or with {@code ghostPercent} none. */
  private String anyWorker(int ghostPercent) {
    if (rnd.nextInt(100) < ghostPercent || known.isEmpty()) {
      return "ghost";
    }
    return element(new ArrayList<>(known));
  }

  private List<Object[]> liveAssignments() {
    List<Object[]> all = new ArrayList<>();
    live.forEach((worker, tokens) ->
        tokens.forEach(token -> all.add(new Object[] {worker, token})));
    return all;
  }

  private Map.Entry<String, Integer> pick(Map<String, Integer> map) {
    if (map.isEmpty()) {
      return null;
    }
    return element(new ArrayList<>(map.entrySet()));
  }

  private <T> T element(List<T> list) {
    return list.get(rnd.nextInt(list.size()));
  }

  // ---- quiescence ------------------------------------------------------------------------------

  /**
   * The events that bring the pool closer to rest: complete every live assignment, create every
   * deployed incarnation, then a tick to the next wake-up (backoff ends) or one ms later.
   */
  List<PoolEvent> settleRound() {
    List<PoolEvent> events = new ArrayList<>();
    for (Object[] assignment : liveAssignments()) {
      events.add(new PoolEvent.Completed((String) assignment[0], (Long) assignment[1], "done",
          null, now));
    }
    deploying.forEach((worker, incarnation) ->
        events.add(new PoolEvent.WorkerCreated(worker, incarnation, now)));
    if (events.isEmpty()) {
      Long next = timers.nextExpiry();
      now = next != null ? Math.max(now, next) : now + 1;
      Timer due = timers.nextDue(now);
      if (due != null) {
        events.add(fire(due));
      }
    }
    return events;
  }

  /** A stop request, then its drain deadline firing. */
  List<PoolEvent> stopAndDrain() {
    List<PoolEvent> events = new ArrayList<>();
    events.add(new PoolEvent.StopRequested(now));
    now += settings.drainTimeoutMs() + 1;
    events.add(new PoolEvent.TimerFired(new Timer.DrainDeadline(), now));
    return events;
  }

  boolean hasUnanswered() {
    return !unanswered.isEmpty();
  }

  // ---- observation -----------------------------------------------------------------------------

  /** Updates the runtime view from one applied or refused transition. */
  void observe(PoolEvent event, Transition transition) {
    if (!(transition instanceof Transition.Applied applied)) {
      return;
    }
    if (isFailover(event, term)) {
      takeOver(((PoolEvent.Recover) event).image());
    }
    if (event instanceof PoolEvent.Resize e) {
      ownSize = e.instances();
    }
    if (event instanceof PoolEvent.WorkerCreated e
        && deploying.remove(e.worker(), e.incarnation())) {
      up.put(e.worker(), e.incarnation());
    } else if (event instanceof PoolEvent.CreationFailed e) {
      deploying.remove(e.worker(), e.incarnation());
    } else if (event instanceof PoolEvent.Completed e) {
      LinkedHashSet<Long> tokens = live.get(e.worker());
      if (tokens != null && tokens.remove(e.assignment())) {
        spent.add(new Object[] {e.worker(), e.assignment()});
      }
    } else if (event instanceof PoolEvent.RateLimited e) {
      LinkedHashSet<Long> tokens = live.get(e.worker());
      if (tokens != null && tokens.remove(e.assignment())) {
        spent.add(new Object[] {e.worker(), e.assignment()});
      }
    } else if (event instanceof PoolEvent.WorkerRegistered e) {
      int incarnation = departed.remove(e.worker()) ? latest.get(e.worker()) + 1 : 1;
      known.add(e.worker());
      retired.remove(e.worker());
      latest.put(e.worker(), incarnation);
      up.put(e.worker(), incarnation);
    } else if (event instanceof PoolEvent.WorkerDeregistered e && known.contains(e.worker())
        && !departed.contains(e.worker())) {
      depart(e.worker());
    } else if (event instanceof PoolEvent.HostRegistered e && applied.effects().stream()
        .anyMatch(effect -> effect instanceof Effect.Publish p
            && p.notice() instanceof Notice.HostChanged)) {
      List<String> before = hostSlots.getOrDefault(e.host(), List.of());
      List<String> now = new ArrayList<>();
      e.slots().forEach(spec -> now.add(spec.id()));
      for (String slot : before) {
        if (!now.contains(slot)) {
          depart(slot);
        }
      }
      List<String> all = new ArrayList<>(before);
      for (String slot : now) {
        if (!all.contains(slot)) {
          all.add(slot);
        }
        known.add(slot);
        departed.remove(slot);
      }
      hostSlots.put(e.host(), all);
      hostNodes.put(e.host(), e.node());
    } else if (event instanceof PoolEvent.HostLost e && hostNodes.containsKey(e.host())) {
      hostNodes.put(e.host(), null);
    } else if (event instanceof PoolEvent.HostDeregistered e && hostSlots.containsKey(e.host())) {
      hostNodes.put(e.host(), null);
      hostSlots.get(e.host()).forEach(this::depart);
    }
    for (Effect effect : applied.effects()) {
      observeEffect(effect);
      // H5: a host lost by its lease is lost as surely as by the cluster's word.
      if (effect instanceof Effect.Publish p && p.notice() instanceof Notice.HostChanged c
          && c.state() == HostState.LOST && hostNodes.containsKey(c.host())) {
        hostNodes.put(c.host(), null);
      }
    }
  }

  /**
   * A new coordinator took over from {@code image}: nothing of the old one's runtime is left (its
   * incarnations, assignments and timers died with it); its hosts are lost; the slots the image
   * names that the pool lacks are departed.
   */
  private void takeOver(DurableImage image) {
    term++;
    ledger = new Ledger(image);
    deploying.clear();
    up.clear();
    live.clear();
    timers.clear();
    spentTimers.clear();
    retired.clear();
    departed.clear();
    known.clear();
    dead.clear();
    image.dead().forEach(entry -> dead.add(entry.job()));
    for (SlotSpec spec : settings.slots()) {
      known.add(spec.id());
    }
    for (DurableImage.HostImage host : image.hosts()) {
      hostNodes.put(host.host(), null);
      known.addAll(host.slots());
    }
    List<String> named = new ArrayList<>();
    for (DurableImage.JobImage job : image.jobs()) {
      named.add(job.target());
      named.add(job.worker());
    }
    image.bindings().forEach(b -> named.add(b.worker()));
    for (String id : named) {
      if (id != null && known.add(id)) {
        departed.add(id);
      }
    }
  }

  private void observeEffect(Effect effect) {
    if (effect instanceof Effect.Persist e) {
      ledger.apply(e.record());
    } else if (effect instanceof Effect.Deploy e) {
      // F6: a resize adds slots, or brings back ones it took out.
      known.add(e.worker());
      departed.remove(e.worker());
      deploying.put(e.worker(), e.incarnation());
      latest.put(e.worker(), e.incarnation());
    } else if (effect instanceof Effect.Stop e) {
      up.remove(e.worker(), e.incarnation());
      deploying.remove(e.worker(), e.incarnation());
      endAssignments(e.worker());
    } else if (effect instanceof Effect.Assign e) {
      live.computeIfAbsent(e.worker(), w -> new LinkedHashSet<>()).add(e.assignment());
    } else if (effect instanceof Effect.Publish e
        && e.notice() instanceof Notice.PhaseChanged change) {
      if (change.phase() == Phase.RETIRED) {
        retired.add(change.worker());
      } else {
        retired.remove(change.worker());
      }
    } else if (effect instanceof Effect.StartTimer || effect instanceof Effect.CancelTimer) {
      if (timers.observe(effect)) {
        spentTimers.add(((Effect.CancelTimer) effect).timer());
      }
    } else if (effect instanceof Effect.Publish e
        && e.notice() instanceof Notice.SlotRemoved removed) {
      depart(removed.worker());
    } else if (effect instanceof Effect.Publish e
        && e.notice() instanceof Notice.DeadLettered d) {
      dead.add(d.job());
    } else if (effect instanceof Effect.Publish e
        && e.notice() instanceof Notice.DeadLetterRemoved d) {
      dead.remove(d.job());
    } else if (effect instanceof Effect.Respond e) {
      if (e.outcome() instanceof Outcome.Accepted) {
        unanswered.add(e.outcome().job());
      } else if (e.outcome().terminal() && !(e.outcome() instanceof Outcome.Rejected)) {
        unanswered.remove(e.outcome().job());
      }
    }
  }

  private void depart(String worker) {
    departed.add(worker);
    up.remove(worker);
    deploying.remove(worker);
    endAssignments(worker);
  }

  private void endAssignments(String worker) {
    LinkedHashSet<Long> tokens = live.remove(worker);
    if (tokens != null) {
      tokens.forEach(token -> spent.add(new Object[] {worker, token}));
    }
  }
}
