package dev.shepherd.runtime.observe;

import dev.shepherd.core.Effect;
import dev.shepherd.runtime.wire.ProgressJson;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.wire.EventJson;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * Publishes a pool's notices, an operator's flow changes (pause, resume, groups: F5 in
 * docs/rules.md), a periodic {@code stats} snapshot, and its noteworthy job outcomes
 * (rejected, failed, interrupted, cancelled) on {@code <prefix>.events}, and hands each of them
 * but {@code stats} to the pool's {@link PoolHistory}. Rejections and the other outcomes each
 * have at most {@value #JOB_EVENTS_PER_SECOND} a second, so a flood of one cannot flood the bus
 * nor crowd out the other; a job given up on (POISON, ATTEMPTS_EXHAUSTED) is always published,
 * because it is what an incident is made of (J8 in docs/rules.md), and crashes bound its rate. Each
 * event's {@code at} is the wall time it was published.
 */
public final class EventPublisher implements PoolObserver {
  static final int JOB_EVENTS_PER_SECOND = 20;

  private final Coordinator coordinator;
  private final PoolHistory history;
  private final EventBus bus;
  private final String address;
  private final Window rejections = new Window();
  private final Window others = new Window();

  public EventPublisher(Coordinator coordinator, PoolHistory history) {
    this.coordinator = coordinator;
    this.history = history;
    this.bus = coordinator.vertx().eventBus();
    this.address = coordinator.config().addresses().events();
  }

  @Override
  public void onNotice(Notice notice) {
    JsonObject event = EventJson.notice(coordinator.name(), notice, coordinator.clock().wallMs());
    bus.publish(address, event);
    history.published(event);
  }

  /** T2 (docs/rules.md): every report, not kept in the history (a report is no incident). */
  @Override
  public void onProgress(Effect.Progress progress) {
    bus.publish(address, ProgressJson.event(coordinator.name(), progress,
        coordinator.clock().wallMs()));
  }

  @Override
  public void onFlowChange(String change, String group, JsonObject state) {
    JsonObject event = EventJson.flow(coordinator.name(), change, group, state,
        coordinator.clock().wallMs());
    bus.publish(address, event);
    history.published(event);
  }

  @Override
  public void onOutcome(Outcome outcome) {
    if (outcome instanceof Outcome.Accepted || outcome instanceof Outcome.Completed) {
      return;
    }
    long now = coordinator.now();
    boolean givenUp = outcome instanceof Outcome.Interrupted i
        && (i.reason() instanceof Interruption.Poison
            || i.reason() instanceof Interruption.AttemptsExhausted);
    Window window = outcome instanceof Outcome.Rejected ? rejections : others;
    if (givenUp || window.admits(now)) {
      JsonObject event = EventJson.job(coordinator.name(), outcome, coordinator.clock().wallMs());
      bus.publish(address, event);
      history.published(event);
    }
  }

  /** At most {@value #JOB_EVENTS_PER_SECOND} events per second of the pool's monotonic clock. */
  private static final class Window {
    private long start;
    private int count;

    boolean admits(long now) {
      if (now - start >= 1000) {
        start = now;
        count = 0;
      }
      return count++ < JOB_EVENTS_PER_SECOND;
    }
  }

  @Override
  public void onStats(PoolSnapshot snapshot) {
    bus.publish(address, EventJson.stats(snapshot, coordinator.clock().wallMs()));
  }
}
