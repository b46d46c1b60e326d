package dev.shepherd.runtime.slot;

import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.BiConsumer;

/**
 * Incarnations as {@link IncarnationVerticle}s of {@code vertx}, deployed from {@code deployFrom}:
 * a context outside any deployment, so that none is a child of another verticle (undeploying the
 * pool's verticle would undeploy it first otherwise).
 */
public final class VertxDeployments implements Deployments {
  private final Vertx vertx;
  private final Context deployFrom;

  public VertxDeployments(Vertx vertx, Context deployFrom) {
    this.vertx = vertx;
    this.deployFrom = deployFrom;
  }

  @Override
  public Incarnation deploy(IncarnationOwner owner, int number, IncarnationRunner.Recipe recipe,
      BiConsumer<String, Throwable> done) {
    IncarnationVerticle incarnation = new IncarnationVerticle(owner, number, recipe.handlers(),
        recipe.unordered(), recipe.onException());
    DeploymentOptions options = new DeploymentOptions().setThreadingModel(recipe.threading())
        .setConfig(recipe.config().copy());
    deployFrom.runOnContext(v -> vertx.deployVerticle(incarnation, options)
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
