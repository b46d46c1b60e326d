package dev.shepherd.runtime;

import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * Publishes a pool's notices, a periodic {@code stats} snapshot, and its noteworthy job outcomes
 * (rejected, failed, interrupted, cancelled; at most {@value #JOB_EVENTS_PER_SECOND} a second, so a
 * flood of rejections cannot flood the bus) on {@code <prefix>.events}, and hands each of them
 * but {@code stats} to the pool's {@link PoolHistory}.
 */
final class EventPublisher implements PoolObserver {
  static final int JOB_EVENTS_PER_SECOND = 20;

  private final Coordinator coordinator;
  private final PoolHistory history;
  private final EventBus bus;
  private final String address;
  private long windowStart;
  private int inWindow;

  EventPublisher(Coordinator coordinator, PoolHistory history) {
    this.coordinator = coordinator;
    this.history = history;
    this.bus = coordinator.vertx().eventBus();
    this.address = coordinator.config().addresses().events();
  }

  @Override
  public void onNotice(Notice notice) {
    JsonObject event = EventJson.notice(coordinator.name(), notice, coordinator.now());
    bus.publish(address, event);
    history.published(event);
  }

  @Override
  public void onOutcome(Outcome outcome) {
    if (outcome instanceof Outcome.Accepted || outcome instanceof Outcome.Completed) {
      return;
    }
    long now = coordinator.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      inWindow = 0;
    }
    if (inWindow++ < JOB_EVENTS_PER_SECOND) {
      JsonObject event = EventJson.job(coordinator.name(), outcome, now);
      bus.publish(address, event);
      history.published(event);
    }
  }

  @Override
  public void onStats(PoolSnapshot snapshot) {
    bus.publish(address, EventJson.stats(snapshot, coordinator.now()));
  }
}
