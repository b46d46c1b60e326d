package dev.shepherd.bench;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextBuilderImpl;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.deployment.DeploymentContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where a benchmark's driver runs against what it measures. Vert.x hands event loops out in turn,
 * so whether the driver's loop also runs a consumer, the pool's coordinator or an incarnation
 * depends on the order contexts were made in: a consumer on the driver's own loop answers with no
 * thread crossed (a few µs where a crossing costs tens), so with one such consumer among four a
 * quarter of raw requests cross no thread and raw's median at one in flight drops.
 * {@link #own} gives the driver a loop
 * that no deployment uses, so that every mode crosses the threads it must; {@link #sharedWith}
 * says what shares the driver's loop otherwise.
 */
final class DriverLoop {
  private DriverLoop() {}

  /** The event loops of every deployment's contexts. */
  private static Set<EventExecutor> used(Vertx vertx) {
    VertxInternal internal = (VertxInternal) vertx;
    Set<EventExecutor> loops = new HashSet<>();
    for (String id : vertx.deploymentIDs()) {
      DeploymentContext deployment = internal.deploymentManager().deployment(id);
      if (deployment != null) {
        for (Context context : deployment.deployment().contexts()) {
          loops.add(((ContextInternal) context).nettyEventLoop());
        }
      }
    }
    return loops;
  }

  /**
   * A context on an event loop that no deployment of {@code vertx} uses, or null when every loop
   * is taken (start Vert.x with more event loops than the benchmark makes contexts).
   */
  static Context own(Vertx vertx) {
    Set<EventExecutor> used = used(vertx);
    for (EventExecutor loop : ((VertxInternal) vertx).nettyEventLoopGroup()) {
      if (!used.contains(loop)) {
        return ((ContextBuilderImpl) ((VertxInternal) vertx).contextBuilder())
            .withEventLoop((EventLoop) loop).build();
      }
    }
    return null;
  }

  /** The deployments (by verticle class) that run a context on {@code driver}'s event loop. */
  static List<String> sharedWith(Vertx vertx, Context driver) {
    VertxInternal internal = (VertxInternal) vertx;
    EventExecutor loop = ((ContextInternal) driver).nettyEventLoop();
    List<String> sharing = new ArrayList<>();
    for (String id : vertx.deploymentIDs()) {
      DeploymentContext deployment = internal.deploymentManager().deployment(id);
      if (deployment == null) {
        continue;
      }
      for (Context context : deployment.deployment().contexts()) {
        if (((ContextInternal) context).nettyEventLoop() == loop) {
          sharing.add(deployment.deployment().identifier());
        }
      }
    }
    return sharing;
  }
}
