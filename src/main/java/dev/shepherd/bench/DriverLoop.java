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
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

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

  /** A context of a deployment: the deployment's verticle and the event loop it runs on. */
  private record Placed(String deployment, EventExecutor loop) {}

  /** Every context of every deployment of {@code vertx}. */
  private static List<Placed> placed(Vertx vertx) {
    VertxInternal internal = (VertxInternal) vertx;
    List<Placed> placed = new ArrayList<>();
    for (String id : vertx.deploymentIDs()) {
      DeploymentContext deployment = internal.deploymentManager().deployment(id);
      if (deployment != null) {
        for (Context context : deployment.deployment().contexts()) {
          placed.add(new Placed(deployment.deployment().identifier(),
              ((ContextInternal) context).nettyEventLoop()));
        }
      }
    }
    return placed;
  }

  /**
   * A context on an event loop that no deployment of {@code vertx} uses, or null when every loop
   * is taken (start Vert.x with more event loops than the benchmark makes contexts).
   */
  static Context own(Vertx vertx) {
    Set<EventExecutor> used = placed(vertx).stream().map(Placed::loop).collect(Collectors.toSet());
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
    EventExecutor loop = ((ContextInternal) driver).nettyEventLoop();
    return placed(vertx).stream().filter(p -> p.loop() == loop).map(Placed::deployment).toList();
  }
}
