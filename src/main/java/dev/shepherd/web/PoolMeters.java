package dev.shepherd.web;

import dev.shepherd.core.Counters;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.Coordinator;
import dev.shepherd.runtime.PoolObserver;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * One pool's meters, labelled {@code pool}: jobs by outcome, backlog, slots by phase, restarts,
 * budget refusals, stale completions, restart budget use (read from the pool's own counters, so
 * they agree with its status snapshot), and two histograms measured as the work happens: queue
 * wait (admission to first assignment) and run time (on local slots).
 */
final class PoolMeters implements PoolObserver {
  private final Coordinator pool;
  private final MeterRegistry registry;
  private final List<Meter> meters = new ArrayList<>();
  private final Timer queueWait;
  private final Timer runTime;
  /** Coordinator context only: when each job waiting for its first assignment was admitted. */
  private final Map<String, Long> admittedAt = new HashMap<>();
  private volatile PoolSnapshot latest;
  private final RevivesMeter revives;

  PoolMeters(Coordinator pool, MeterRegistry registry, PoolSnapshot first) {
    this.pool = pool;
    this.registry = registry;
    this.latest = first;
    String name = pool.name();
    jobs("accepted", Counters::accepted);
    jobs("rejected", Counters::rejected);
    jobs("completed", Counters::completed);
    jobs("failed", Counters::failed);
    jobs("interrupted", Counters::interrupted);
    jobs("cancelled", Counters::cancelled);
    counter("shepherd.jobs.retried", "Jobs put back in the backlog after an interruption (RETRY)",
        Counters::retried);
    counter("shepherd.restarts", "Slot replacements decided by the supervisor",
        Counters::restarts);
    counter("shepherd.budget.refusals", "Replacements refused by the restart budget",
        Counters::budgetRefusals);
    counter("shepherd.completions.stale", "Completions refused as stale or for an idle slot",
        Counters::staleCompletions);
    gauge("shepherd.backlog.length", "Jobs waiting in the backlog", s -> s.backlogLength());
    gauge("shepherd.backlog.capacity", "Backlog capacity", s -> s.backlogCapacity());
    gauge("shepherd.restart.budget.used", "Replacements in the current restart window",
        s -> s.restartsInWindow());
    gauge("shepherd.restart.budget.max", "Replacements allowed per restart window",
        s -> s.maxRestarts());
    for (Phase phase : Phase.values()) {
      meters.add(Gauge.builder("shepherd.slots", this,
              m -> m.latest.slots().stream().filter(s -> s.phase() == phase).count())
          .description("Slots by phase").tag("pool", name).tag("phase", phase.name())
          .register(registry));
    }
    queueWait = Timer.builder("shepherd.queue.wait")
        .description("Time from a job's admission to its first assignment")
        .tag("pool", name).publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry);
    runTime = Timer.builder("shepherd.run.time")
        .description("Time a job ran on a local worker incarnation")
        .tag("pool", name).publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(100_000)).maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry);
    meters.add(queueWait);
    meters.add(runTime);
    revives = new RevivesMeter(registry, name, meters);
  }

  Coordinator pool() {
    return pool;
  }

  /** Reads a fresh snapshot (before a scrape, so the counters are exact at that moment). */
  Future<Void> refresh() {
    return pool.snapshotLocal().onSuccess(s -> latest = s).mapEmpty();
  }

  void close() {
    pool.unobserve(this);
    meters.forEach(registry::remove);
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
    if (admitted != null && attempt == 1) {
      queueWait.record(System.nanoTime() - admitted, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void onRun(String worker, long runNanos) {
    runTime.record(runNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void onNotice(Notice notice) {
    revives.count(notice);
  }

  @Override
  public void onStats(PoolSnapshot snapshot) {
    latest = snapshot;
  }

  private void jobs(String outcome, ToDoubleFunction<Counters> count) {
    meters.add(FunctionCounter.builder("shepherd.jobs", this,
            m -> count.applyAsDouble(m.latest.counters()))
        .description("Jobs answered, by outcome (accepted is the admission)")
        .tag("pool", pool.name()).tag("outcome", outcome).register(registry));
  }

  private void counter(String name, String help, ToDoubleFunction<Counters> count) {
    meters.add(FunctionCounter.builder(name, this, m -> count.applyAsDouble(m.latest.counters()))
        .description(help).tag("pool", pool.name()).register(registry));
  }

  private void gauge(String name, String help, ToDoubleFunction<PoolSnapshot> value) {
    meters.add(Gauge.builder(name, this, m -> value.applyAsDouble(m.latest))
        .description(help).tag("pool", pool.name()).register(registry));
  }
}
