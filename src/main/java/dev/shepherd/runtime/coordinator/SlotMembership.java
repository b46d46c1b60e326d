package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.ConfigException;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolError;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSize;
import dev.shepherd.core.Transition;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.payload.BadRequest;
import dev.shepherd.runtime.slot.Deployments;
import dev.shepherd.runtime.wire.Requests;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The handles of a pool's slots, on the coordinator's context: its own local slots (made at start
 * and by a resize, F6 in docs/rules.md, given back once a removed one is undeployed) and the
 * slots of other kinds an extension adds (a worker host's). A handle exists before the event that
 * makes the pool deploy its slot, so the effects that follow find it.
 */
final class SlotMembership {
  private final Coordinator coordinator;
  private final PoolConfig config;
  /** Makes the {@link Deployments} of each local slot, at start and when a resize adds one. */
  private final Supplier<Deployments> deployments;
  private final Map<String, SlotHandle> slots = new LinkedHashMap<>();

  /** The configured local slots, each with a handle. */
  SlotMembership(Coordinator coordinator, PoolConfig config, Supplier<Deployments> deployments,
      Pool pool) {
    this.coordinator = coordinator;
    this.config = config;
    this.deployments = deployments;
    int maxConcurrency = pool.snapshot(0).size().maxConcurrency();
    for (String id : pool.slotIds()) {
      slots.put(id, new LocalSlot(id, coordinator, config, deployments.get(), maxConcurrency));
    }
  }

  /** Every slot's handle, by slot id. */
  Map<String, SlotHandle> handles() {
    return slots;
  }

  /**
   * F6 (docs/rules.md): an operator resizes the pool's own slots: the size now, or a failed future
   * that changed nothing: {@link BadRequest} naming {@code instances} (0 for a pool that does not
   * run on worker hosts alone), {@link PoolErrorException} {@code RESIZE_REFUSED} (the pool is
   * stopping). A null field keeps the pool's. New slots get their handles before the event that
   * deploys them; a slot that leaves gives its handle back once its incarnation is undeployed
   * ({@link #left}). A worker host's slots are not touched.
   */
  Future<PoolSize> resize(Requests.Resize request) {
    Pool pool = coordinator.pool();
    PoolSize size = pool.snapshot(coordinator.now()).size();
    int instances = request.instances() == null ? size.instances() : request.instances();
    int maxConcurrency = request.maxConcurrency() == null ? size.maxConcurrency()
        : request.maxConcurrency();
    List<LocalSlot> added = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      String id = "w-" + i;
      if (!slots.containsKey(id)) {
        LocalSlot slot = new LocalSlot(id, coordinator, config, deployments.get(),
            maxConcurrency);
        slots.put(id, slot);
        added.add(slot);
      }
    }
    Transition t;
    try {
      t = coordinator.apply(new PoolEvent.Resize(instances, maxConcurrency, coordinator.now()));
    } catch (ConfigException e) {
      added.forEach(this::remove);
      return Future.failedFuture(new BadRequest(e.getMessage()));
    }
    if (t instanceof Transition.Refused refused) {
      added.forEach(this::remove);
      if (refused.error() instanceof PoolError.ResizeRefused r && r.field() != null) {
        return Future.failedFuture(new BadRequest(r.message()));
      }
      return Future.failedFuture(new PoolErrorException(refused.error()));
    }
    for (SlotHandle slot : slots.values()) {
      if (slot instanceof LocalSlot local) {
        local.capacity(maxConcurrency);
      }
    }
    return Future.succeededFuture(new PoolSize(instances, maxConcurrency));
  }

  /**
   * F6 (docs/rules.md): the local slot {@code worker} left the pool; its handle goes once its
   * incarnation is undeployed, unless a resize brought the slot back meanwhile.
   */
  void left(String worker) {
    SlotHandle handle = slots.get(worker);
    if (handle instanceof LocalSlot) {
      handle.undeployed().onComplete(ar -> coordinator.execute(() -> {
        if (!coordinator.pool().slotIds().contains(worker)) {
          slots.remove(worker, handle);
        }
      }));
    }
  }

  /**
   * Gives the pool the handle of a slot it was not configured with (a worker host's), before the
   * event that makes the pool deploy it. False, and nothing changes, when the id has a handle.
   */
  boolean add(SlotHandle handle) {
    return slots.putIfAbsent(handle.id(), handle) == null;
  }

  /** Takes back a handle given with {@link #add} that the pool never came to know. */
  void remove(SlotHandle handle) {
    if (coordinator.pool().phase(handle.id()) == null) {
      slots.remove(handle.id(), handle);
    }
  }
}
