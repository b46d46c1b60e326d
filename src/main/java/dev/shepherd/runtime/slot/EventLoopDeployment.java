package dev.shepherd.runtime.slot;

import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.core.impl.ContextBuilderImpl;
import io.vertx.core.internal.CloseFuture;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.deployment.Deployment;
import io.vertx.core.internal.deployment.DeploymentContext;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Vert.x deployment of one EVENT_LOOP verticle whose context runs on a given event loop, where
 * {@code deployVerticle} would take the next loop of the pool: a worker host deploys its EVENT_LOOP
 * incarnations on its own loop this way, so that a job crosses no thread between the host and the
 * incarnation. Otherwise it is deployed, undeployed and closed as {@code deployVerticle}'s own
 * deployments are (Vert.x's deployment manager keeps it, {@code vertx.undeploy(id)} and closing
 * Vert.x undeploy it, its context's close hooks run after its stop), with one instance.
 */
final class EventLoopDeployment implements Deployment {
  private static final Logger LOG = LoggerFactory.getLogger(EventLoopDeployment.class);

  private final VertxInternal vertx;
  private final Deployable verticle;
  private final DeploymentOptions options;
  private final EventLoop eventLoop;
  private final ClassLoader classLoader;
  private volatile ContextInternal context;
  /** Until the verticle's start succeeded: an undeploy meanwhile fails it. */
  private volatile Promise<Object> starting;

  private EventLoopDeployment(VertxInternal vertx, Deployable verticle, DeploymentOptions options,
      EventLoop eventLoop) {
    this.vertx = vertx;
    this.verticle = verticle;
    this.options = new DeploymentOptions(options).setThreadingModel(ThreadingModel.EVENT_LOOP);
    this.eventLoop = eventLoop;
    this.classLoader = verticle.getClass().getClassLoader();
  }

  /**
   * Deploys {@code verticle} with {@code options} (their threading model aside) on {@code
   * eventLoop}, from the calling thread's context; completes with its deployment id.
   */
  static Future<String> deploy(Vertx vertx, Deployable verticle, DeploymentOptions options,
      EventLoop eventLoop) {
    VertxInternal internal = (VertxInternal) vertx;
    ContextInternal calling = internal.getOrCreateContext();
    return internal.deploymentManager().deploy(calling.deployment(), calling,
        new EventLoopDeployment(internal, verticle, options, eventLoop))
        .map(DeploymentContext::id);
  }

  @Override
  public Set<Context> contexts() {
    ContextInternal c = context;
    return c == null ? Set.of() : Set.of(c);
  }

  @Override
  public Set<Deployable> instances() {
    return Set.of(verticle);
  }

  @Override
  public DeploymentOptions options() {
    return new DeploymentOptions(options);
  }

  @Override
  public String identifier() {
    return "java:" + verticle.getClass().getName();
  }

  @Override
  public Future<?> deploy(DeploymentContext deployment) {
    ContextInternal c = ((ContextBuilderImpl) vertx.contextBuilder())
        .withDeploymentContext(deployment).withCloseFuture(new CloseFuture())
        .withClassLoader(classLoader).withThreadingModel(ThreadingModel.EVENT_LOOP)
        .withEventLoop(eventLoop).build();
    context = c;
    Promise<Object> start = c.promise();
    starting = start;
    c.runOnContext(v -> {
      Future<?> started;
      try {
        started = verticle.deploy(c);
      } catch (Throwable t) {
        start.tryFail(t);
        return;
      }
      started.onComplete(start);
    });
    return start.future().transform(ar -> {
      if (ar.succeeded()) {
        starting = null;
        return Future.succeededFuture();
      }
      return undeploy().transform(ignored -> Future.failedFuture(ar.cause()));
    });
  }

  @Override
  public Future<?> undeploy() {
    ContextInternal c = context;
    Promise<Object> start = starting;
    if (start != null) {
      // Still starting: the start fails, and the context closes once cleaned up.
      return start.tryFail(new VertxException("Verticle un-deployed", true))
          ? c.closeFuture().future() : Future.succeededFuture();
    }
    Promise<Void> stopped = Promise.promise();
    c.runOnContext(v -> {
      Promise<Object> stop = Promise.promise();
      stop.future().eventually(() -> c.close()
          .onFailure(e -> LOG.error("a close hook of {} failed", identifier(), e)))
          .onComplete(ar -> {
            if (ar.succeeded()) {
              stopped.complete();
            } else {
              stopped.fail(ar.cause());
            }
          });
      Future<?> result;
      try {
        result = verticle.undeploy(c);
      } catch (Throwable t) {
        if (!stop.tryFail(t)) {
          c.reportException(t);
        }
        return;
      }
      result.onComplete(stop);
    });
    return stopped.future();
  }

  @Override
  public Future<?> cleanup() {
    ContextInternal c = context;
    return c == null ? Future.succeededFuture() : c.closeFuture().close();
  }
}
