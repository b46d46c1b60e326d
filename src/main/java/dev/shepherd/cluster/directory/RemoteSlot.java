package dev.shepherd.cluster.directory;

import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;
import dev.shepherd.runtime.coordinator.SlotHandle;
import io.vertx.core.Future;

/**
 * A slot whose incarnations run on a worker host (H3, H4 in docs/rules.md): deploying, stopping and
 * assigning are commands to the host, batched with the rest of the coordinator's turn; the host's
 * reports come back through {@code <prefix>.completed}. Assignments name the incarnation last
 * deployed, so a host drops what was meant for an incarnation it no longer runs. Confined to the
 * coordinator's context.
 */
final class RemoteSlot implements SlotHandle {
  private final String id;
  private final RemoteHost host;
  /** The incarnation the pool last asked the host to deploy. */
  private int incarnation;

  RemoteSlot(String id, RemoteHost host) {
    this.id = id;
    this.host = host;
  }

  RemoteHost host() {
    return host;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public void deploy(int number) {
    incarnation = number;
    host.send(new HostCommand.Deploy(id, number));
  }

  /**
   * Tells the host to stop the incarnation (a timeout, a crash the supervisor answers, a
   * sibling's restart, the pool's stop). A lost host is told nothing: it is gone, or, if it comes
   * back, the pool has it register anew, which ends every incarnation it ran.
   */
  @Override
  public void stop(int number, Exit reason) {
    if (reason != Exit.NODE_LOST) {
      host.send(new HostCommand.Stop(id, number, reason));
    }
  }

  @Override
  public void assign(Effect.Assign assignment) {
    host.send(HostCommand.Assign.of(assignment, incarnation,
        host.traces == null ? null : host.traces.trace(assignment.job())));
  }

  /**
   * A running job was cancelled (P17 in docs/rules.md): the host tells the incarnation running it.
   */
  @Override
  public void cancel(long assignment) {
    host.send(new HostCommand.Cancel(id, incarnation, assignment));
  }

  /** A host's incarnations are its own to undeploy: nothing in this JVM waits for them. */
  @Override
  public Future<Void> undeployed() {
    return Future.succeededFuture();
  }
}
