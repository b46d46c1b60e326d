package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.PoolError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolState;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;
import java.util.ArrayList;
import java.util.function.Consumer;

/**
 * The {@link HostedPool} an extension is given: a coordinator seen through that interface only,
 * so an extension cannot reach the rest of it (its pool, its requests, its high availability).
 */
final class CoordinatorHosting implements HostedPool {
  private final Coordinator coordinator;

  CoordinatorHosting(Coordinator coordinator) {
    this.coordinator = coordinator;
  }

  @Override
  public dev.shepherd.runtime.trace.JobTraces traces() {
    return coordinator.traces();
  }

  @Override
  public String name() {
    return coordinator.name();
  }

  @Override
  public Addresses addresses() {
    return coordinator.config().addresses();
  }

  @Override
  public long heartbeatTimeoutMs() {
    return coordinator.config().heartbeatTimeoutMs();
  }

  @Override
  public long term() {
    return coordinator.config().settings().term();
  }

  @Override
  public PoolState state() {
    return coordinator.state();
  }

  @Override
  public long now() {
    return coordinator.now();
  }

  @Override
  public <T> TurnBuffer<T> turnBuffer(int cap, Consumer<ArrayList<T>> flush) {
    return new TurnBuffer<>(coordinator.turns(), cap, flush);
  }

  @Override
  public Sender sender() {
    return coordinator.sender();
  }

  @Override
  public EventBus eventBus() {
    return coordinator.vertx().eventBus();
  }

  @Override
  public ClusterManager clusterManager() {
    return ((VertxInternal) coordinator.vertx()).clusterManager();
  }

  @Override
  public void execute(Runnable task) {
    coordinator.execute(task);
  }

  @Override
  public void observe(PoolObserver observer) {
    coordinator.observe(observer);
  }

  @Override
  public void unobserve(PoolObserver observer) {
    coordinator.unobserve(observer);
  }

  @Override
  public boolean addSlot(SlotHandle handle) {
    return coordinator.addSlot(handle);
  }

  @Override
  public void removeSlot(SlotHandle handle) {
    coordinator.removeSlot(handle);
  }

  @Override
  public PoolError report(PoolEvent fact) {
    return coordinator.report(fact);
  }

  @Override
  public void ran(String worker, long runNanos) {
    for (PoolObserver observer : coordinator.observers()) {
      observer.onRun(worker, runNanos);
    }
  }

  @Override
  public void handleCompletionBatches(Handler<Message<Object>> handler) {
    coordinator.handleCompletionBatches(handler);
  }
}
