package dev.shepherd.cluster.directory;

import dev.shepherd.cluster.setup.Membership;
import dev.shepherd.runtime.coordinator.Coordinator;
import io.vertx.core.eventbus.Message;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The real {@link PoolHosts} and {@link HostDirectory} of a coordinator, for a test that
 * delivers messages itself (the failover simulation): the handler of each host address, and how
 * to stop them, as {@code PoolHosts.start} and {@code stop} would on a cluster.
 */
public final class PoolHostsRoutes {
  private final PoolHosts hosts = new PoolHosts();
  private final Map<String, Consumer<Message<Object>>> routes;

  /** Attaches to {@code coordinator}; {@code isMember} says which nodes are in the cluster. */
  public PoolHostsRoutes(Coordinator coordinator, Predicate<String> isMember) {
    routes = hosts.attach(coordinator.hosted(), new Membership() {
      @Override
      public boolean isMember(String node) {
        return isMember.test(node);
      }

      @Override
      public void watch(Consumer<String> onLeft) {}

      @Override
      public void close() {}
    });
  }

  public Map<String, Consumer<Message<Object>>> routes() {
    return routes;
  }

  public void stop() {
    hosts.stop();
  }
}
