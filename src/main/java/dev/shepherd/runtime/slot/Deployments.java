package dev.shepherd.runtime.slot;

import io.vertx.core.Future;
import java.util.function.BiConsumer;

/**
 * How a slot's incarnations come and go: made by the slot's recipe and deployed, then
 * undeployed. Vert.x in production ({@link VertxDeployments}); the failover simulation's world in
 * its tests, so that local slots run there as they run here. What an incarnation's handler
 * answers reaches its {@link IncarnationOwner}. Called on the owner's context.
 */
public interface Deployments {

  /**
   * Makes incarnation {@code number} of {@code owner}'s slot by {@code recipe} and deploys it;
   * {@code done} hears, on any thread and after this returns, its deployment id, or why it did
   * not deploy.
   */
  Incarnation deploy(IncarnationOwner owner, int number, IncarnationRunner.Recipe recipe,
      BiConsumer<String, Throwable> done);

  /**
   * Undeploys {@code incarnation}, deployed (or undeploying itself); completes once it is gone,
   * never failing.
   */
  Future<Void> undeploy(Incarnation incarnation);
}
