package dev.shepherd.runtime;

import dev.shepherd.runtime.slot.Deployments;
import dev.shepherd.runtime.slot.Incarnation;
import dev.shepherd.runtime.slot.IncarnationOwner;
import dev.shepherd.runtime.slot.IncarnationRunner;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Where a coordinator node of the simulation deploys its pool's local slots' incarnations: on
 * the node itself, so that a killed node takes them with it and a paused one pauses them. The
 * production {@code LocalSlot} and {@code IncarnationRunner} drive them; only the incarnation is
 * fake ({@link SimIncarnation}): it deploys after a few ms (one in fifty fails to), runs jobs as
 * {@link SimHost.Behaviour} says (with bad jobs), and now and then crashes or exits by itself.
 */
final class SimDeployments implements Deployments {
  private final SimNode node;
  private final boolean badJobs;
  private long deployments;

  SimDeployments(SimNode node, boolean badJobs) {
    this.node = node;
    this.badJobs = badJobs;
  }

  @Override
  public Incarnation deploy(IncarnationOwner owner, int number, IncarnationRunner.Recipe recipe,
      BiConsumer<String, Throwable> done) {
    SimIncarnation incarnation = new SimIncarnation(owner, number);
    SimWorld world = node.world;
    node.timer(1 + world.rnd.nextInt(20), () -> {
      if (world.rnd.nextInt(50) == 0) {
        done.accept(null, new IllegalStateException("simulated start failure"));
        return;
      }
      String id = node + "-" + owner.worker() + "-" + number + "-" + ++deployments;
      done.accept(id, null);
      int draw = world.rnd.nextInt(20);
      if (draw < 2) {
        node.timer(200 + world.rnd.nextInt(5_000), () -> incarnation.crashItself());
      } else if (draw < 3) {
        node.timer(200 + world.rnd.nextInt(5_000), () -> incarnation.exitItself());
      }
    });
    return incarnation;
  }

  @Override
  public Future<Void> undeploy(Incarnation incarnation) {
    Promise<Void> gone = Promise.promise();
    node.timer(1 + node.world.rnd.nextInt(5), gone::complete);
    return gone.future();
  }

  /** An incarnation on this node: its handler is the simulation's {@link SimHost.Behaviour}. */
  private final class SimIncarnation implements Incarnation {
    private final IncarnationOwner owner;
    private final int number;
    private String deploymentId;
    private boolean stopped;
    /** Crashed or exited: it runs and reports nothing more. */
    private boolean ended;

    SimIncarnation(IncarnationOwner owner, int number) {
      this.owner = owner;
      this.number = number;
    }

    @Override
    public int incarnation() {
      return number;
    }

    /** The simulation's behaviours run one job at a time whatever the capacity. */
    @Override
    public void unordered(boolean sideBySide) {}

    @Override
    public void deliver(Job job) {
      SimWorld world = node.world;
      world.localRuns++;
      SimHost.Behaviour behaviour = badJobs ? SimHost.Behaviour.of(job.id(), job.attempt())
          : SimHost.Behaviour.SUCCEED;
      if (behaviour == SimHost.Behaviour.HANG) {
        return;
      }
      node.timer(2 + world.rnd.nextInt(world.rnd.nextInt(10) == 0 ? 1_500 : 150), () -> {
        if (stopped || ended) {
          return;
        }
        switch (behaviour) {
          case CRASH -> crash(new StackOverflowError("in " + job.id()));
          case FAIL -> owner.completed(this, List.of(new Completion(job, job.assignment(),
              System.nanoTime(), null, new IllegalStateException("cannot do " + job.id()))));
          default -> owner.completed(this, List.of(new Completion(job, job.assignment(),
              System.nanoTime(), "result-" + job.id(), null)));
        }
      });
    }

    private void crash(Throwable cause) {
      ended = true;
      node.world.localCrashes++;
      owner.crashed(this, cause);
    }

    void crashItself() {
      if (!stopped && !ended) {
        crash(new IllegalStateException("simulated crash outside any job"));
      }
    }

    void exitItself() {
      if (!stopped && !ended) {
        ended = true;
        owner.exited(this);
      }
    }

    @Override
    public void cancel(long assignment) {}

    @Override
    public void finishedOne(Job job) {}

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
    public void deployed(String id) {
      deploymentId = id;
    }

    @Override
    public String deploymentId() {
      return deploymentId;
    }
  }
}
