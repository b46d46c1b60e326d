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
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.observe.PoolHistory;
import io.vertx.core.eventbus.Message;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A node that lists the durable pool, as {@link PoolVerticle} runs one with high availability:
 * it stands by through its {@link SimLeadership}; told to lead a term, it starts the real {@link
 * Coordinator} of that term on this node's ports (its clock, timers and next turn on the
 * simulation's queue, its sends on the simulation's network), leading through the real {@link
 * DurableLeader}, recovering from what the claim read, answering the pool's addresses with the
 * real {@link BusEndpoints} and its hosts with the real {@code PoolHosts}; told to step down (or
 * when its coordinator does), it abandons that coordinator at once and stands by again. Nothing
 * here decides what the pool does.
 */
final class SimPoolNode extends SimNode {
  /** The lease, as {@link PoolVerticle#LEASE_MS}: well inside {@link SimWorld#DETECT_MS}. */
  static final long LEASE_MS = PoolVerticle.LEASE_MS;

  private final PoolConfig config;
  private final SimLeadership leadership = new SimLeadership(this);
  private final Executor turns = task -> world.after(0, () -> deliver(task));
  private Coordinator coordinator;
  private PoolHostsRoutes hosts;
  private Map<String, Consumer<Message<Object>>> routes;
  /** Whether this node's wall clock stepped since it began leading. */
  private boolean stepped;
  int termsLed;

  SimPoolNode(SimWorld world, String name, PoolConfig config) {
    super(world, name);
    this.config = config;
  }

  void start() {
    timer(world.rnd.nextInt(100), () -> leadership.start(null, config,
        new Leadership.Candidate() {
          @Override
          public void lead(long term, DurableLog.Recovered recovered, long claimedAt) {
            leadTerm(term, recovered, claimedAt);
          }

          @Override
          public void stepDown(String why) {
            SimPoolNode.this.stepDown(why);
          }
        }));
  }

  boolean leading() {
    return coordinator != null && state == State.RUNNING;
  }

  Coordinator coordinator() {
    return coordinator;
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

  private void leadTerm(long term, DurableLog.Recovered recovered, long claimedAt) {
    if (coordinator != null) {
      stepDown("a new term began while this node still led one");
    }
    stepped = false;
    termsLed++;
    PoolConfig termConfig = config.withSettings(config.settings().withTerm(term));
    Coordinator c = new Coordinator(null, null, termConfig,
        new PoolPorts(clock(), scheduler(), turns, this::send));
    coordinator = c;
    c.lead(term, claimedAt, LEASE_MS, leadership, this::stepDown);
    c.observe(new Fencing(c));
    Map<String, Consumer<Message<Object>>> table =
        new HashMap<>(new BusEndpoints(c, new PoolHistory(c.clock()::wallMs)).routes());
    world.recovered(recovered.image());
    world.log(() -> this + " leads term " + term + ": " + recovered.image().jobs().size()
        + " jobs, " + recovered.undelivered().size() + " answers to send again");
    c.start();
    c.recover(recovered);
    hosts = new PoolHostsRoutes(c, node -> true);
    table.putAll(hosts.routes());
    routes = table;
    world.consumers.add(this);
  }

  private void stepDown(String why) {
    Coordinator led = coordinator;
    if (led == null) {
      return;
    }
    world.log(() -> this + " steps down from term " + led.term() + ": " + why);
    coordinator = null;
    routes = null;
    led.abandon();
    world.consumers.remove(this);
    hosts.stop();
    leadership.resign(led.term());
  }

  @Override
  void merged() {
    leadership.lose("this member is merging back into the cluster");
  }

  @Override
  void lostMajority() {
    leadership.lose("the cluster has fewer members than a majority needs");
  }

  /** What the coordinator sends: over the network. */
  private void send(String address, Object body) {
    world.sendTo(this, address, body, null);
  }

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
