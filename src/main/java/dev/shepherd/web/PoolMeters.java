package dev.shepherd.web;

import dev.shepherd.core.Counters;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.access.PoolHandle;
import dev.shepherd.runtime.coordinator.PoolObserver;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * One pool's meters, labelled {@code pool} and {@code coordinator}: admissions by result and
 * finished jobs by outcome, as separate meters (T3 in docs/rules.md), backlog,
 * slots by phase, restarts, budget refusals, stale completions, restart budget use, poisoned and
 * dead-lettered jobs and the dead-letter set's size (read from the pool's own counters, so they
 * agree with its status snapshot), its groups' load with a bounded label set ({@link
 * GroupMeters}), and, for a pool coordinated here, two histograms measured as the work happens:
 * queue wait (admission to first assignment) and run time (on local slots, and on worker hosts'
 * slots as the host measured it).
 *
 * <p>{@code coordinator} is {@value #HERE} on the node that coordinates the pool, where the
 * meters are exact at each scrape, and {@value #ELSEWHERE} on every other node of a cluster, where
 * they are a copy of the pool's latest {@code stats} event (at most half a second old). A scrape
 * of several nodes counts each pool once by keeping {@code coordinator="local"}.
 */
final class PoolMeters implements PoolObserver {
  static final String HERE = "local";
  static final String ELSEWHERE = "remote";

  private final PoolHandle pool;
  private final MeterRegistry registry;
  private final String coordinator;
  private final List<Meter> meters = new ArrayList<>();
  private final Timer queueWait;
  private final Timer runTime;
  /** Coordinator context only: when each job waiting for its first assignment was admitted. */
  private final Map<String, Long> admittedAt = new HashMap<>();
  private volatile PoolSnapshot latest;
  /**
   * The configured groups the latest snapshot does not list (F1 in docs/rules.md), on the node
   * that coordinates the pool: from its last stats, at most half a second old.
   */
  private volatile List<PoolSnapshot.GroupStatus> configured = List.of();
  private final RevivesMeter revives;
  private final GroupMeters groups;

  PoolMeters(PoolHandle pool, MeterRegistry registry, PoolSnapshot first) {
    this.pool = pool;
    this.registry = registry;
    this.coordinator = pool.local() ? HERE : ELSEWHERE;
    this.latest = first;
    String name = pool.name();
    admitted("accepted", Counters::accepted);
    admitted("rejected", Counters::rejected);
    finished("completed", Counters::completed);
    finished("failed", Counters::failed);
    finished("interrupted", Counters::interrupted);
    finished("cancelled", Counters::cancelled);
    counter("shepherd.jobs.retried", "Jobs put back in the backlog after an interruption (RETRY)",
        Counters::retried);
    counter("shepherd.restarts", "Slot replacements decided by the supervisor",
        Counters::restarts);
    counter("shepherd.budget.refusals", "Replacements refused by the restart budget",
        Counters::budgetRefusals);
    counter("shepherd.completions.stale", "Completions refused as stale or for an idle slot",
        Counters::staleCompletions);
    counter("shepherd.jobs.poisoned", "Jobs answered POISON: they stopped their workers"
        + " poisonAfter times (J2)", Counters::poisoned);
    counter("shepherd.jobs.dead.lettered", "Jobs kept in the dead-letter set (J5)",
        Counters::deadLettered);
    counter("shepherd.dead.letters.evicted", "Dead letters pushed out of the full set (J5)",
        Counters::deadLetterEvicted);
    gauge("shepherd.dead.letters", "Jobs in the dead-letter set (J5)", s -> s.deadLetters());
    gauge("shepherd.backlog.length", "Jobs waiting in the backlog", s -> s.backlogLength());
    gauge("shepherd.backlog.capacity", "Backlog capacity", s -> s.backlogCapacity());
    gauge("shepherd.restart.budget.used", "Replacements in the current restart window",
        s -> s.restartsInWindow());
    gauge("shepherd.restart.budget.max", "Replacements allowed per restart window",
        s -> s.maxRestarts());
    for (Phase phase : Phase.values()) {
      meters.add(Gauge.builder("shepherd.slots", this,
              m -> m.latest.slots().stream().filter(s -> s.phase() == phase).count())
          .description("Slots by phase").tag("pool", name).tag("coordinator", coordinator)
          .tag("phase", phase.name()).register(registry));
    }
    revives = new RevivesMeter(registry, name, coordinator, meters);
    groups = new GroupMeters(registry, name, coordinator);
    groups.update(first);
    if (!pool.local()) {
      queueWait = null;
      runTime = null;
      return;
    }
    queueWait = Timer.builder("shepherd.queue.wait")
        .description("Time from a job's admission to its first assignment")
        .tag("pool", name).tag("coordinator", coordinator).publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry);
    runTime = Timer.builder("shepherd.run.time")
        .description("Time a job ran on a worker incarnation, local or on a worker host")
        .tag("pool", name).tag("coordinator", coordinator).publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry);
    meters.add(queueWait);
    meters.add(runTime);
  }

  PoolHandle pool() {
    return pool;
  }

  /**
   * Reads a fresh snapshot of a pool coordinated here (before a scrape, so the counters are exact
   * at that moment); a remote pool's meters keep its latest stats event.
   */
  Future<Void> refresh() {
    if (!pool.local()) {
      return Future.succeededFuture();
    }
    return pool.snapshot().onSuccess(s -> {
      latest = s;
      groups.update(s, configured);
    }).mapEmpty();
  }

  /** Removes the meters from the registry. */
  void close() {
    meters.forEach(registry::remove);
    groups.close();
  }

  @Override
  public void onOutcome(Outcome outcome) {
    if (outcome instanceof Outcome.Accepted) {
      admittedAt.put(outcome.job(), System.nanoTime());
    } else if (outcome.terminal()) {
      admittedAt.remove(outcome.job());
    }
  }

  @Override
  public void onAssigned(String worker, String job, int attempt) {
    Long admitted = admittedAt.remove(job);
    if (admitted != null && attempt == 1 && queueWait != null) {
      queueWait.record(System.nanoTime() - admitted, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void onRun(String worker, long runNanos) {
    if (runTime != null) {
      runTime.record(runNanos, TimeUnit.NANOSECONDS);
    }
  }

  /** An event a remote pool published (its notices reach this node only so). */
  void heard(JsonObject event) {
    revives.count(event);
  }

  @Override
  public void onNotice(Notice notice) {
    revives.count(notice);
  }

  @Override
  public void onConfiguredGroups(List<PoolSnapshot.GroupStatus> unlisted) {
    configured = unlisted;
  }

  @Override
  public void onStats(PoolSnapshot snapshot) {
    latest = snapshot;
    groups.update(snapshot, configured);
  }

  /** A submission's first answer: {@code accepted} or {@code rejected} (T3 in docs/rules.md). */
  private void admitted(String result, ToDoubleFunction<Counters> count) {
    meters.add(FunctionCounter.builder("shepherd.jobs.admitted", this,
            m -> count.applyAsDouble(m.latest.counters()))
        .description("Submissions answered with an admission, by result")
        .tag("pool", pool.name()).tag("coordinator", coordinator).tag("result", result)
        .register(registry));
  }

  /**
   * An accepted job's terminal outcome (T3 in docs/rules.md): once every accepted job is answered,
   * these sum to the accepted admissions.
   */
  private void finished(String outcome, ToDoubleFunction<Counters> count) {
    meters.add(FunctionCounter.builder("shepherd.jobs.finished", this,
            m -> count.applyAsDouble(m.latest.counters()))
        .description("Accepted jobs answered with their terminal outcome, by outcome")
        .tag("pool", pool.name()).tag("coordinator", coordinator).tag("outcome", outcome)
        .register(registry));
  }

  private void counter(String name, String help, ToDoubleFunction<Counters> count) {
    meters.add(FunctionCounter.builder(name, this, m -> count.applyAsDouble(m.latest.counters()))
        .description(help).tag("pool", pool.name()).tag("coordinator", coordinator)
        .register(registry));
  }

  private void gauge(String name, String help, ToDoubleFunction<PoolSnapshot> value) {
    meters.add(Gauge.builder(name, this, m -> value.applyAsDouble(m.latest))
        .description(help).tag("pool", pool.name()).tag("coordinator", coordinator)
        .register(registry));
  }
}
