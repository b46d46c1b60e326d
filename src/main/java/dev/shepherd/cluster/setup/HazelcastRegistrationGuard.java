package dev.shepherd.cluster.setup;

import com.hazelcast.core.EntryAdapter;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.multimap.MultiMap;
import dev.shepherd.runtime.payload.LogText;
import io.vertx.core.Vertx;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import io.vertx.spi.cluster.hazelcast.impl.HazelcastRegistrationInfo;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link RegistrationGuard} of vertx-hazelcast: an entry listener on its consumer list (the
 * multimap {@value #SUBS}) that, when one of this node's consumers leaves the list while this node
 * still has it (vertx-hazelcast forgets a consumer of its own before it removes it from the list,
 * so an unregistered one passes), has vertx-hazelcast publish this node's consumers again (its own
 * {@code republishOwnSubs}, which it runs after a member left; it lists only consumers still
 * registered). Both are internals of vertx-hazelcast, reached by reflection: without them the
 * guard logs once and does nothing.
 */
final class HazelcastRegistrationGuard implements RegistrationGuard {
  private static final Logger LOG = LoggerFactory.getLogger(HazelcastRegistrationGuard.class);
  /** vertx-hazelcast's multimap of consumers: address to the registrations on each node. */
  static final String SUBS = "__vertx.subs";

  private final Vertx vertx;
  private final HazelcastClusterManager manager;
  private final Object helper;
  private final Method republish;
  /** vertx-hazelcast's own consumers of this node, by address. */
  private final Map<String, Set<?>> own;
  private final MultiMap<String, HazelcastRegistrationInfo> subs;
  /** A republish is queued or running: removals meanwhile need no other. */
  private final AtomicBoolean pending = new AtomicBoolean();
  private UUID listener;

  private HazelcastRegistrationGuard(Vertx vertx, HazelcastClusterManager manager, Object helper,
      Method republish, Map<String, Set<?>> own) {
    this.vertx = vertx;
    this.manager = manager;
    this.helper = helper;
    this.republish = republish;
    this.own = own;
    this.subs = manager.getHazelcastInstance().getMultiMap(SUBS);
  }

  static RegistrationGuard start(Vertx vertx, ClusterManager cluster) {
    HazelcastClusterManager manager = (HazelcastClusterManager) cluster;
    Object helper;
    Method republish;
    Map<String, Set<?>> own;
    try {
      Field field = HazelcastClusterManager.class.getDeclaredField("subsMapHelper");
      field.setAccessible(true);
      helper = field.get(manager);
      republish = helper.getClass().getMethod("republishOwnSubs");
      Field ownSubs = helper.getClass().getDeclaredField("ownSubs");
      ownSubs.setAccessible(true);
      @SuppressWarnings("unchecked")
      Map<String, Set<?>> read = (Map<String, Set<?>>) ownSubs.get(helper);
      own = read;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("this node's consumers are not guarded against removal by another member:"
          + " vertx-hazelcast's internals differ ({})", e.toString());
      return () -> { };
    }
    HazelcastRegistrationGuard guard =
        new HazelcastRegistrationGuard(vertx, manager, helper, republish, own);
    guard.listener = guard.subs.addEntryListener(new EntryAdapter<>() {
      @Override
      public void entryRemoved(EntryEvent<String, HazelcastRegistrationInfo> event) {
        guard.removed(event);
      }
    }, true);
    return guard;
  }

  private void removed(EntryEvent<String, HazelcastRegistrationInfo> event) {
    HazelcastRegistrationInfo removed = event.getOldValue() != null ? event.getOldValue()
        : event.getValue();
    if (removed == null || !manager.getNodeId().equals(removed.unwrap().nodeId())) {
      return;
    }
    Set<?> still = own.get(event.getKey());
    if (still == null || !still.contains(removed.unwrap())) {
      return;
    }
    if (pending.compareAndSet(false, true)) {
      LOG.warn("this node's consumer of {} was removed from the cluster's list by another member;"
          + " listing this node's consumers again", LogText.quote(event.getKey()));
      vertx.executeBlocking(() -> {
        pending.set(false);
        republish.invoke(helper);
        return null;
      }, false).onFailure(e -> LOG.warn("listing this node's consumers again failed: {}",
          e.toString()));
    }
  }

  @Override
  public void close() {
    if (listener != null) {
      try {
        subs.removeEntryListener(listener);
      } catch (RuntimeException e) {
        // Hazelcast is shutting down already: the listener goes with it.
      }
      listener = null;
    }
  }
}
