package dev.shepherd.runtime.coordinator;

import dev.shepherd.runtime.Job;
import dev.shepherd.runtime.slot.Deployments;
import dev.shepherd.runtime.slot.Incarnation;
import dev.shepherd.runtime.slot.IncarnationOwner;
import dev.shepherd.runtime.slot.IncarnationRunner;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/**
 * Where a {@link TakeoverRehearsal}'s local slots deploy: incarnations that deploy at once and
 * complete each job they are given with its payload, on the rehearsal's turns. The recipe is
 * never used, so the pool's handler is never made.
 */
final class RehearsalDeployments implements Deployments {
  private final Executor turns;
  private int deployed;

  RehearsalDeployments(Executor turns) {
    this.turns = turns;
  }

  @Override
  public Incarnation deploy(IncarnationOwner owner, int number, IncarnationRunner.Recipe recipe,
      BiConsumer<String, Throwable> done) {
    Rehearsed incarnation = new Rehearsed(owner, number);
    String id = "rehearsal-" + owner.worker() + "-" + number + "-" + ++deployed;
    turns.execute(() -> done.accept(id, null));
    return incarnation;
  }

  @Override
  public Future<Void> undeploy(Incarnation incarnation) {
    return Future.succeededFuture();
  }

  /** An incarnation that answers each job with its payload, on the next turn. */
  private final class Rehearsed implements Incarnation {
    private final IncarnationOwner owner;
    private final int number;
    private String deploymentId;
    private boolean stopped;

    Rehearsed(IncarnationOwner owner, int number) {
      this.owner = owner;
      this.number = number;
    }

    @Override
    public int incarnation() {
      return number;
    }

    @Override
    public void deliver(Job job) {
      turns.execute(() -> {
        if (!stopped) {
          owner.completed(this, List.of(new Completion(job.id(), job.assignment(),
              System.nanoTime(), job.payload(), null)));
        }
      });
    }

    @Override
    public void cancel(long assignment) {}

    @Override
    public void finishedOne(long assignment) {}

    @Override
    public void whenIdle(Promise<Void> idle) {
      idle.tryComplete();
    }

    @Override
    public void stopBySlot() {
      stopped = true;
    }

    @Override
    public boolean stoppedBySlot() {
      return stopped;
    }

    @Override
    public void unordered(boolean sideBySide) {}

    @Override
    public void deployed(String id) {
      deploymentId = id;
    }

    @Override
    public String deploymentId() {
      return deploymentId;
    }
  }
}
