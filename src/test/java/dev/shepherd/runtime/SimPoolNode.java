package dev.shepherd.runtime;

import dev.shepherd.cluster.directory.PoolHostsRoutes;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.access.BusEndpoints;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.coordinator.DurableLeader;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.coordinator.PoolPorts;
import dev.shepherd.runtime.coordinator.TermRunner;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.observe.PoolHistory;
import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.eventbus.Message;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A node that lists the durable pool, as {@link PoolVerticle} runs one with high availability:
 * it stands by through its {@link SimLeadership}, and the production {@link TermRunner} leads
 * the terms it is given, starting the real {@link Coordinator} of each term on this node's ports
 * (its clock, timers and next turn on the simulation's queue, its sends on the simulation's
 * network), leading through the real {@link DurableLeader}, recovering from what the claim read;
 * this node's {@link TermRunner.Site} answers the pool's addresses with the real {@link
 * BusEndpoints} and its hosts with the real {@code PoolHosts}. Only the wiring is here: nothing
 * here decides what the pool does.
 */
final class SimPoolNode extends SimNode {
  /** The lease, as {@link TermRunner#LEASE_MS}: well inside {@link SimWorld#DETECT_MS}. */
  static final long LEASE_MS = TermRunner.LEASE_MS;

  private final PoolConfig config;
  /** Whether jobs misbehave on the pool's local slots, as on the hosts ({@link SimHost}). */
  private final boolean badJobs;
  private final SimLeadership leadership = new SimLeadership(this);
  private final Executor turns = task -> world.after(0, () -> deliver(task));
  private final TermRunner terms;
  private PoolHostsRoutes hosts;
  private Map<String, Consumer<Message<Object>>> routes;
  /** Whether this node's wall clock stepped since it began leading. */
  private boolean stepped;
  int termsLed;

  SimPoolNode(SimWorld world, String name, PoolConfig config) {
    super(world, name);
    this.config = config;
    this.badJobs = !config.settings().jobs().equals(dev.shepherd.core.JobSettings.NONE);
    this.terms = new TermRunner(config, leadership, new Site());
  }

  void start() {
    timer(world.rnd.nextInt(100), () -> leadership.start(null, config,
        new Leadership.Candidate() {
          @Override
          public void lead(long term, DurableLog.Recovered recovered, long claimedAt) {
            stepped = false;
            termsLed++;
            world.recovered(recovered.image());
            world.log(() -> SimPoolNode.this + " leads term " + term + ": "
                + recovered.image().jobs().size() + " jobs, " + recovered.undelivered().size()
                + " answers to send again");
            terms.lead(term, recovered, claimedAt);
          }

          @Override
          public void stepDown(String why) {
            terms.stepDown(why);
          }
        }));
  }

  boolean leading() {
    return terms.coordinator() != null && state == State.RUNNING;
  }

  Coordinator coordinator() {
    return terms.coordinator();
  }

  /** Whether what this leader journals replays exactly (its wall clock stayed put). */
  boolean exactJournal() {
    return !stepped;
  }

  @Override
  void stepClock(long deltaMs) {
    super.stepClock(deltaMs);
    stepped = true;
  }

  /** Where this node runs a term: on its ports, reached through the simulation's network. */
  private final class Site implements TermRunner.Site {
    @Override
    public Coordinator open(PoolConfig termConfig) {
      Coordinator c = new Coordinator(null, null, termConfig,
          new PoolPorts(clock(), scheduler(), turns, network,
              () -> new SimDeployments(SimPoolNode.this, badJobs)));
      c.observe(new Fencing(c));
      return c;
    }

    @Override
    public void serve(Coordinator c, Consumer<Throwable> done) {
      Map<String, Consumer<Message<Object>>> table =
          new HashMap<>(new BusEndpoints(c, new PoolHistory(c::wallNow)).routes());
      hosts = new PoolHostsRoutes(c, node -> true);
      table.putAll(hosts.routes());
      routes = table;
      world.consumers.add(SimPoolNode.this);
      done.accept(null);
    }

    @Override
    public void discard(Coordinator c) {}

    @Override
    public void close(Coordinator led, Runnable done) {
      world.log(() -> SimPoolNode.this + " steps down from term " + led.term());
      routes = null;
      world.consumers.remove(SimPoolNode.this);
      hosts.stop();
      done.run();
    }
  }

  @Override
  void merged() {
    leadership.lose("this member is merging back into the cluster");
  }

  @Override
  void lostMajority() {
    leadership.lose("the cluster has fewer members than a majority needs");
  }

  /**
   * What the coordinator sends: over the network. A send that asks to hear when it was written (a
   * durable pool's answer, A3) leaves the way a connection writes: from this process's own queue,
   * which a kill loses, after a while (a connection behind on its writes may take hundreds of ms).
   */
  private final Sender network = new Sender() {
    @Override
    public void send(String address, Object body) {
      world.sendTo(SimPoolNode.this, address, body, null);
    }

    @Override
    public void send(String address, Object body, Runnable written) {
      timer(world.delay(), () -> {
        send(address, body);
        written.run();
      });
    }
  };

  @Override
  void receive(SimMessage message) {
    Consumer<Message<Object>> route = routes == null ? null : routes.get(message.address());
    if (route != null) {
      route.accept(message);
    }
  }

  /** A2: nothing is answered or assigned under a term once a newer one exists. */
  private final class Fencing implements PoolObserver {
    private final Coordinator led;

    Fencing(Coordinator led) {
      this.led = led;
    }

    @Override
    public void onOutcome(Outcome outcome) {
      world.log(() -> SimPoolNode.this + "/" + led.term() + " answers " + outcome);
      check(() -> "answered " + outcome);
    }

    @Override
    public void onAssigned(String worker, String job, int attempt) {
      world.log(() -> SimPoolNode.this + "/" + led.term() + " assigns " + job + " to " + worker
          + " (attempt " + attempt + ")");
      check(() -> "assigned " + job + " to " + worker);
    }

    @Override
    public void onStats(PoolSnapshot snapshot) {}

    private void check(java.util.function.Supplier<String> what) {
      if (world.store.term > led.term()) {
        world.violation(SimPoolNode.this + " of term " + led.term() + " " + what.get()
            + " while term " + world.store.term + " exists");
      }
    }
  }
}
