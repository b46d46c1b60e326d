package dev.shepherd.runtime.slot;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.List;

/**
 * The slot an {@link IncarnationVerticle} serves, as the incarnation sees it: where assignments
 * reach it from and where it reports what happened (completions, a crash, a normal exit, an
 * undeploy from outside). A local slot implements it on its pool's coordinator; a worker host
 * implements it for the slots it runs for a pool coordinated on another node.
 */
public interface IncarnationOwner {

  /** The stable slot id, e.g. {@code w-2} or {@code h1/w-0}. */
  String worker();

  /**
   * Owner's context: runs {@code task} on {@code target} after the owner's current turn, in one
   * hand-over with everything else the turn queued for {@code target}.
   */
  void handOver(Context target, Runnable task);

  /** Any thread: assignments that finished in one turn of the incarnation's context, in order. */
  void completed(Incarnation incarnation, List<Incarnation.Completion> done);

  /** Any thread, at most once per incarnation: it crashed and runs nothing more. */
  void crashed(Incarnation incarnation, Throwable cause);

  /** Incarnation's context, at most once: it undeployed itself (a normal exit). */
  void exited(Incarnation incarnation);

  /**
   * Incarnation's context: it is being undeployed by someone other than its slot (Vert.x is
   * closing); its stop waits for the returned future.
   */
  Future<Void> releasedExternally(Incarnation incarnation);
}
