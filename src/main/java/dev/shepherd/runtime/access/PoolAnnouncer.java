package dev.shepherd.runtime.access;

import dev.shepherd.core.Notice;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.wire.NodeId;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;

/**
 * Tells the cluster that this pool is here ({@link PoolAnnouncement}), so that every node serves
 * it (section 8.4 in docs/rules.md). It rides on the coordinator's periodic stats tick, so it
 * starts once the pool has started (its addresses are consumed by then) and stops with it: at most
 * once every {@link PoolAnnouncement#EVERY_MS} while the pool runs or drains, at once when a node
 * asks, and a last {@code gone} when the pool has stopped. Runs on the coordinator's context.
 */
public final class PoolAnnouncer implements PoolObserver {
  private final Coordinator coordinator;
  private final EventBus bus;
  private final String node;
  private MessageConsumer<Object> queries;
  /** When it last announced (epoch ms; 0: never). */
  private long lastAnnounced;
  private boolean over;

  public PoolAnnouncer(Coordinator coordinator) {
    this.coordinator = coordinator;
    this.bus = coordinator.vertx().eventBus();
    this.node = NodeId.of(coordinator.vertx());
  }

  @Override
  public void onStats(PoolSnapshot snapshot) {
    if (over) {
      return;
    }
    if (queries == null) {
      queries = bus.consumer(PoolAnnouncement.QUERY, message -> announce());
    }
    if (coordinator.now() - lastAnnounced >= PoolAnnouncement.EVERY_MS) {
      announce();
    }
  }

  @Override
  public void onNotice(Notice notice) {
    if (!over && notice instanceof Notice.PoolStateChanged changed
        && changed.state() == PoolState.STOPPED) {
      over = true;
      if (queries != null) {
        queries.unregister();
      }
      bus.publish(PoolAnnouncement.ADDRESS, announcement(true).toJson());
    }
  }

  /**
   * This node no longer coordinates the pool (its leader stepped down, A2 in docs/rules.md): says
   * so once, so that other nodes list the pool from the node that leads it now.
   */
  public void withdraw() {
    if (!over) {
      over = true;
      if (queries != null) {
        queries.unregister();
      }
      bus.publish(PoolAnnouncement.ADDRESS, announcement(true).toJson());
    }
  }

  private void announce() {
    if (!over) {
      lastAnnounced = coordinator.now();
      bus.publish(PoolAnnouncement.ADDRESS, announcement(false).toJson());
    }
  }

  private PoolAnnouncement announcement(boolean gone) {
    return new PoolAnnouncement(coordinator.name(), coordinator.config().addresses().prefix(),
        node, gone ? 0 : PoolAnnouncement.EVERY_MS, gone, coordinator.config().ha());
  }
}
