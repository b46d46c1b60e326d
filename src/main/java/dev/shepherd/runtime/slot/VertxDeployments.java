package dev.shepherd.runtime.slot;

import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import java.util.function.BiConsumer;

/**
 * Incarnations as {@link IncarnationVerticle}s of {@code vertx}, deployed from {@code deployFrom}:
 * a context outside any deployment, so that none is a child of another verticle (undeploying the
 * pool's verticle would undeploy it first otherwise). Given an event loop, EVENT_LOOP
 * incarnations run on it ({@link EventLoopDeployment}) instead of the next loop of the pool.
 */
public final class VertxDeployments implements Deployments {
  private final Vertx vertx;
  private final Context deployFrom;
  /** Where EVENT_LOOP incarnations run; null: on the loop Vert.x picks for each. */
  private final EventLoop eventLoop;

  public VertxDeployments(Vertx vertx, Context deployFrom) {
    this(vertx, deployFrom, null);
  }

  /** EVENT_LOOP incarnations on {@code eventLoop} (null: wherever Vert.x puts them). */
  public VertxDeployments(Vertx vertx, Context deployFrom, EventLoop eventLoop) {
    this.vertx = vertx;
    this.deployFrom = deployFrom;
    this.eventLoop = eventLoop;
  }

  @Override
  public Incarnation deploy(IncarnationOwner owner, int number, IncarnationRunner.Recipe recipe,
      BiConsumer<String, Throwable> done) {
    IncarnationVerticle incarnation = new IncarnationVerticle(owner, number, recipe.handlers(),
        recipe.unordered(), recipe.onException());
    DeploymentOptions options = new DeploymentOptions().setThreadingModel(recipe.threading())
        .setConfig(recipe.config().copy());
    boolean pinned = eventLoop != null && recipe.threading() == ThreadingModel.EVENT_LOOP;
    deployFrom.runOnContext(v -> (pinned
        ? EventLoopDeployment.deploy(vertx, incarnation, options, eventLoop)
        : vertx.deployVerticle(incarnation, options))
        .onComplete(ar -> done.accept(ar.succeeded() ? ar.result() : null, ar.cause())));
    return incarnation;
  }

  @Override
  public Future<Void> undeploy(Incarnation incarnation) {
    IncarnationVerticle verticle = (IncarnationVerticle) incarnation;
    return (verticle.exitedItself() ? verticle.exitUndeploy()
        : vertx.undeploy(verticle.deploymentId()))
        .recover(e -> Future.succeededFuture());
  }
}
