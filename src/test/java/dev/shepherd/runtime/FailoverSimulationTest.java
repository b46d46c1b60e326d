package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.QuietThread;
import dev.shepherd.SeedRuns;
import dev.shepherd.core.Backoff;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.HostSettings;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.InterruptionPolicy;
import dev.shepherd.core.JobSettings;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.Retention;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.core.SupervisionSettings;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.runtime.access.BusEndpoints;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.DurableLeader;
import dev.shepherd.runtime.coordinator.PoolPorts;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.wire.AddressResponder;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.BusResponder;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A seeded, deterministic simulation of coordinator high availability (section 8.5), over the
 * real runtime: three coordinator nodes of a durable pool (one leads, the others stand by), two
 * worker hosts, two submitters, a replicated store and a network that delays and reorders every
 * message, all on one thread in simulated time. Each leading node runs the production {@link
 * Coordinator} with its {@link DurableLeader} and {@link DurableGate}, the pool's {@link
 * BusEndpoints} (submit decoding, {@link BusResponder}, {@link AddressResponder}) and the
 * hosts' {@code PoolHosts} and {@code HostDirectory}, on the node's own ports ({@link PoolPorts}:
 * a clock with its own monotonic origin and a wall clock that steps, timers and turns on the
 * simulation's queue, sends on its network). Only the world is fake: the store behind the
 * {@link Leadership} port ({@link SimStore}, {@link SimLeadership}), the network ({@link
 * SimWorld}, {@link SimMessage}), the hosts' workers ({@link SimHost}, speaking the hosts' wire
 * protocol), the submitters and the operator (speaking the pool's), and the verticle's glue that
 * starts a coordinator per term ({@link SimPoolNode}).
 *
 * <p>For 20 s the leader is killed ({@code kill -9}), paused ({@code kill -STOP}, long enough to
 * be replaced or not) or cut off by a partition (from the store, the other members and the
 * hosts) at random; killed nodes are replaced by fresh ones; wall clocks step by up to a minute
 * either way; heartbeats and registrations are now and then lost; then everything settles. In a
 * third of the seeds section 10's job rules are on (J2-J6): some jobs crash their worker (until
 * poisoned), hang, or fail (retried or not), some submits are delayed or bring retries of their
 * own, an operator replays and discards dead letters; so failovers happen with waiting jobs,
 * suspects and dead letters in the journal. The runtime asserts {@code PoolInvariants} as it goes
 * (under {@code -ea}, as surefire runs). Checked over {@code shepherd.failover.seeds} seeds
 * (default 1000 each):
 *
 * <ul>
 *   <li>every job whose {@code accepted} reached its submitter is answered, and every answer of a
 *       job is the same outcome (an answer may arrive twice when a coordinator died between
 *       sending it and reporting it sent; a {@code PoolClient} completes once): exactly one
 *       answer per job, never two different ones from two runs (A3, A4);
 *   <li>a rejected job is never answered;
 *   <li>nothing is answered or assigned under a term once a newer term exists (A2);
 *   <li>at every checkpoint the store's log, as JSON, replays into exactly the image the pool
 *       computes of itself (A3), so a takeover loses no waiting job, dead letter or recent
 *       outcome ({@link SimStore});
 *   <li>in the end exactly one coordinator leads and consumes the pool's address, and its pool
 *       holds every invariant.
 * </ul>
 *
 * <p>A failure names its seed; {@code -Dshepherd.seed=<n>} replays that run and prints its trace.
 */
@Execution(ExecutionMode.CONCURRENT)
public class FailoverSimulationTest {
  private static final long FAULTS_UNTIL = 20_000;
  private static final long SETTLE_UNTIL = 240_000;
  /** How long a silent host stays up (the pool's {@code heartbeatTimeoutMs}). */
  private static final long HOST_TIMEOUT_MS = 2_000;

  @Test
  void A3_every_accepted_job_is_answered_exactly_once_across_kills_pauses_and_reorderings() {
    run("failover-mixed", 35, 35);
  }

  @Test
  void A2_nothing_is_answered_or_assigned_under_an_older_term_across_long_pauses() {
    run("failover-pauses", 10, 80);
  }

  private static void run(String name, int killPercent, int pausePercent) {
    Long replay = Long.getLong("shepherd.seed");
    int seeds = replay != null ? 1 : Integer.getInteger("shepherd.failover.seeds", 1000);
    long started = System.nanoTime();
    Summary total = new Summary();
    // Seeds share nothing (each has its world, its nodes and their coordinators, on the thread
    // that runs it), so they run side by side; the totals are summed in seed order. The faults
    // make the runtime warn thousands of times (step-downs, crashes): nothing checked here, and
    // a replayed seed prints its trace instead, so below ERROR the seeds' threads are silent
    // (those threads only: other classes run beside this one).
    for (Summary one : SeedRuns.run(name, seeds, i -> QuietThread.run(() -> {
      long seed = replay != null ? replay
          : new java.util.SplittableRandom(name.hashCode() * 31L + i).nextLong();
      long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      Summary run = runSeed(seed, killPercent, pausePercent, replay != null);
      run.cpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu;
      return run;
    }))) {
      total.add(one);
    }
    System.out.printf("simulation %s: %d seeds; faults: %d kills, %d pauses, %d partitions, %d"
            + " clock steps, %d messages dropped; %d jobs accepted, %d answered twice (same"
            + " outcome), %d terms, %d host commands fenced; section 10: %d poisoned, %d"
            + " replays; %d checkpoints checked (%d not, after a clock step), %d final invariant"
            + " checks; takeovers recovered %d waiting jobs, %d dead letters, %d recent outcomes;"
            + " local slots in %d seeds: %d jobs run, %d crashes; %d ms on %d threads (%d ms of"
            + " CPU)%n", name, seeds, total.kills, total.pauses,
        total.partitions, total.clockSteps, total.dropped,
        total.accepted, total.duplicates, total.terms, total.fenced, total.poisoned,
        total.replays, total.checkpoints, total.inexact, total.invariantChecks,
        total.waitingRecovered, total.deadRecovered,
        total.recentRecovered, total.localSeeds, total.localRuns, total.localCrashes,
        (System.nanoTime() - started) / 1_000_000, replay != null ? 1 : SeedRuns.threads(),
        total.cpuNanos / 1_000_000);
    assertThat(total.accepted).isPositive();
    if (replay == null) {
      assertThat(total.waitingRecovered).as("takeovers with waiting jobs").isPositive();
      assertThat(total.deadRecovered).as("takeovers with dead letters").isPositive();
      assertThat(total.poisoned).as("poisoned jobs").isPositive();
      assertThat(total.localRuns).as("jobs run on local slots").isPositive();
      assertThat(total.localCrashes).as("crashes of local incarnations").isPositive();
    }
  }

  /** Totals over seeds. */
  private static final class Summary {
    long cpuNanos;
    long accepted;
    long duplicates;
    long terms;
    long fenced;
    long poisoned;
    long replays;
    long checkpoints;
    long waitingRecovered;
    long deadRecovered;
    long recentRecovered;
    long inexact;
    long kills;
    long pauses;
    long partitions;
    long clockSteps;
    long dropped;
    long invariantChecks;
    long localSeeds;
    long localRuns;
    long localCrashes;

    void add(Summary other) {
      cpuNanos += other.cpuNanos;
      localSeeds += other.localSeeds;
      localRuns += other.localRuns;
      localCrashes += other.localCrashes;
      inexact += other.inexact;
      kills += other.kills;
      pauses += other.pauses;
      partitions += other.partitions;
      clockSteps += other.clockSteps;
      dropped += other.dropped;
      invariantChecks += other.invariantChecks;
      accepted += other.accepted;
      duplicates += other.duplicates;
      terms += other.terms;
      fenced += other.fenced;
      poisoned += other.poisoned;
      replays += other.replays;
      checkpoints += other.checkpoints;
      waitingRecovered += other.waitingRecovered;
      deadRecovered += other.deadRecovered;
      recentRecovered += other.recentRecovered;
    }
  }

  private static PoolSettings settings(SimWorld world) {
    PoolSettings settings = PoolSettings.defaults("sim", 1)
        .withHosts(new HostSettings(true, 30_000))
        .withSlots(localSlots(world))
        .withDurable(true)
        .withBacklogCapacity(100_000)
        .withInterruption(world.rnd.nextInt(4) == 0 ? InterruptionPolicy.FAIL
            : InterruptionPolicy.RETRY, 0)
        .withJobTimeoutMs(5_000);
    if (world.rnd.nextInt(3) != 0) {
      return settings;
    }
    // Section 10 on, with small sets so that evictions and forgetting happen too.
    JobSettings jobs = JobSettings.DEFAULT
        .withPoisonAfter(1 + world.rnd.nextInt(3))
        .withRetryBackoff(new Backoff(100 + world.rnd.nextInt(400), 2.0, 2_000, 0.2))
        .withRetryFailures(world.rnd.nextBoolean() ? FailureRetry.NONE
            : new FailureRetry(2, new Backoff(50, 2.0, 500, 0.2)))
        .withMaxDelayMs(5_000)
        .withDeadLetter(new Retention(5 + world.rnd.nextInt(20), 1 << 20),
            world.rnd.nextBoolean())
        .withRecentOutcomes(new Retention(10 + world.rnd.nextInt(50), 1 << 20));
    return settings
        .withInterruption(settings.interruption(), world.rnd.nextBoolean() ? 0 : 4)
        .withSupervision(SupervisionSettings.defaults().withRevive(1_000, 8_000))
        .withJobs(new JobSettings(jobs.poisonAfter(), jobs.retryBackoff(),
            jobs.retryFailures(), jobs.maxDelayMs(), jobs.deadLetter(), jobs.deadLetterFailed(),
            jobs.recentOutcomes(), world.rnd.nextLong()));
  }

  /**
   * The pool's own slots, on whichever node leads: none in two seeds of three, else one or two
   * (section 4's slots beside the hosts', through the production {@code LocalSlot}).
   */
  private static List<SlotSpec> localSlots(SimWorld world) {
    int count = world.rnd.nextInt(3) == 0 ? 1 + world.rnd.nextInt(2) : 0;
    List<SlotSpec> slots = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      slots.add(new SlotSpec("w-" + i, 1 + world.rnd.nextInt(2)));
    }
    return slots;
  }

  private static Summary runSeed(long seed, int killPercent, int pausePercent, boolean trace) {
    SimWorld world = new SimWorld(seed, trace);
    PoolConfig config = config(settings(world));
    Addresses addresses = config.addresses();
    boolean jobRules = !config.settings().jobs().equals(JobSettings.NONE);
    Map<String, SimHost> hosts = new LinkedHashMap<>();
    Map<String, SimSubmitter> submitters = new LinkedHashMap<>();
    for (int i = 1; i <= 2; i++) {
      SimHost host = new SimHost(world, "h" + i, addresses, jobRules);
      hosts.put(host.name, host);
      SimSubmitter submitter = new SimSubmitter(world, "s" + i, addresses, jobRules);
      submitters.put(submitter.address(), submitter);
    }
    SimOperator operator = new SimOperator(world, "ops", addresses);
    List<SimPoolNode> coordinators = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      SimPoolNode c = new SimPoolNode(world, "c" + i, config);
      coordinators.add(c);
      c.start();
    }
    hosts.values().forEach(h -> world.after(500 + world.rnd.nextInt(500), h::start));
    submitters.values().forEach(s -> world.after(1_000, () -> s.submitUntil(FAULTS_UNTIL)));
    if (jobRules) {
      world.after(2_000, () -> operator.operateUntil(FAULTS_UNTIL));
    }
    scheduleFaults(world, coordinators, config, killPercent, pausePercent);
    try {
      world.runUntil(SETTLE_UNTIL, () -> world.now() > FAULTS_UNTIL + 10_000
          && submitters.values().stream().allMatch(s -> s.waiting() == 0)
          && coordinators.stream().filter(SimPoolNode::leading).count() == 1
          && coordinators.stream().noneMatch(c -> c.isolated));
      if (Boolean.getBoolean("shepherd.sim.stats")) {
        System.out.println("seed " + seed + ": ended at " + world.now() + " ms, "
            + world.executed + " tasks, " + config.settings().slots().size() + " local slots");
      }
      Summary summary = check(world, coordinators, hosts, submitters);
      summary.replays = operator.replays;
      summary.checkpoints = world.store.checkpointsChecked;
      summary.inexact = world.store.checkpointsInexact;
      summary.waitingRecovered = world.waitingRecovered;
      summary.deadRecovered = world.deadRecovered;
      summary.recentRecovered = world.recentRecovered;
      summary.kills = world.kills;
      summary.pauses = world.pauses;
      summary.partitions = world.partitions;
      summary.clockSteps = world.clockSteps;
      summary.dropped = world.dropped;
      summary.localSeeds = config.settings().slots().isEmpty() ? 0 : 1;
      summary.localRuns = world.localRuns;
      summary.localCrashes = world.localCrashes;
      return summary;
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError("seed " + seed + " (replay: -Dshepherd.seed=" + seed + "): "
          + e + (trace ? "\n" + String.join("\n", world.trace) : ""), e);
    }
  }

  /**
   * The pool's configuration: {@code settings}, hosts lost after 2 s; its local slots' handlers
   * are the simulation's ({@link SimDeployments}), so the factory is never called.
   */
  private static PoolConfig config(PoolSettings settings) {
    return new PoolConfig(settings, null, io.vertx.core.ThreadingModel.EVENT_LOOP,
        new io.vertx.core.json.JsonObject(), "shepherd.sim", PoolConfig.DEFAULT_MAX_PAYLOAD_DEPTH,
        HOST_TIMEOUT_MS, true, OnException.FAIL_JOB, () -> {
          throw new IllegalStateException("the simulation deploys its own incarnations");
        });
  }

  /**
   * Every 1-4 s until {@link #FAULTS_UNTIL}: the leader is killed (and a fresh node joins a
   * little later), or paused for 0.2-9 s (replaced when the pause outlasts the detection), or cut
   * off by a partition for 0.2-9 s, or a standby is paused; independently, now and then a node's
   * wall clock steps by up to a minute either way; or nothing happens.
   */
  private static void scheduleFaults(SimWorld world, List<SimPoolNode> coordinators,
      PoolConfig config, int killPercent, int pausePercent) {
    long at = 2_000;
    while (at < FAULTS_UNTIL) {
      at += 1_000 + world.rnd.nextInt(3_000);
      world.at(at, () -> {
        SimPoolNode leader = coordinators.stream().filter(SimPoolNode::leading)
            .findFirst().orElse(null);
        int draw = world.rnd.nextInt(100);
        int partitionPercent = 10;
        if (leader != null && draw < killPercent) {
          leader.kill();
          world.after(1_000 + world.rnd.nextInt(3_000), () -> {
            SimPoolNode fresh = new SimPoolNode(world, "c" + (coordinators.size() + 1), config);
            coordinators.add(fresh);
            fresh.start();
          });
        } else if (leader != null && draw < killPercent + pausePercent) {
          leader.pause(200 + world.rnd.nextInt(8_800));
        } else if (leader != null && draw < killPercent + pausePercent + partitionPercent) {
          leader.partition(200 + world.rnd.nextInt(8_800));
        } else if (draw < killPercent + pausePercent + partitionPercent + 10) {
          SimPoolNode any = coordinators.get(world.rnd.nextInt(coordinators.size()));
          any.pause(200 + world.rnd.nextInt(6_000));
        }
        if (world.rnd.nextInt(4) == 0) {
          SimPoolNode any = coordinators.get(world.rnd.nextInt(coordinators.size()));
          world.clockSteps++;
          any.stepClock((world.rnd.nextBoolean() ? 1 : -1) * (1 + world.rnd.nextInt(60_000)));
        }
      });
    }
  }

  private static Summary check(SimWorld world, List<SimPoolNode> coordinators,
      Map<String, SimHost> hosts, Map<String, SimSubmitter> submitters) {
    Summary summary = new Summary();
    assertThat(world.violations).as("A2 fencing, A3 images").isEmpty();
    for (SimSubmitter submitter : submitters.values()) {
      for (String job : submitter.accepted) {
        List<Outcome> answers = submitter.answers.get(job);
        if (answers == null) {
          throw new AssertionError("A3 accepted job " + job + " was never answered; "
              + coordinators.stream().filter(SimPoolNode::leading).map(c -> c + " has it "
                  + c.coordinator().pool().lookup(job) + ", slots "
                  + c.coordinator().pool().snapshot(0).slots()).toList());
        }
        for (Outcome answer : answers) {
          if (!answer.equals(answers.get(0))) {
            throw new AssertionError("A3 job " + job + " was answered differently: " + answers);
          }
        }
        summary.duplicates += answers.size() - 1;
        if (answers.get(0) instanceof Outcome.Interrupted i
            && i.reason() instanceof Interruption.Poison) {
          summary.poisoned++;
        }
      }
      for (String job : submitter.rejected) {
        if (submitter.answers.containsKey(job)) {
          throw new AssertionError("rejected job " + job + " was answered: "
              + submitter.answers.get(job));
        }
      }
      summary.accepted += submitter.accepted.size();
    }
    List<SimPoolNode> leaders = coordinators.stream().filter(SimPoolNode::leading).toList();
    assertThat(leaders).as("exactly one coordinator leads in the end").hasSize(1);
    assertThat(world.consumers).as("only the leader consumes the pool's address")
        .containsExactly(leaders.get(0));
    coordinators.forEach(c -> summary.terms += c.termsLed);
    // The runtime asserts the invariants as it goes (-ea); the survivor's pool once more here.
    dev.shepherd.core.PoolInvariants.check(leaders.get(0).coordinator().pool());
    summary.invariantChecks++;
    hosts.values().forEach(h -> summary.fenced += h.commandsRefused);
    return summary;
  }
}
