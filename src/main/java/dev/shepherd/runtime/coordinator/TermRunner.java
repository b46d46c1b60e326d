package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.payload.LogText;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terms a node leads of one highly available pool (A1-A3 in docs/rules.md): told by its
 * {@link Leadership} to lead a term, it makes that term's {@link Coordinator} where the pool runs
 * ({@link Site}), leading through its {@link DurableLeader}, starts it, recovers it from what the
 * claim read and only then lets it serve the pool's addresses; told to step down (or when its
 * coordinator's writes fail), it abandons that coordinator at once, has its site let go of it and
 * gives the term back. At most one term at a time: a new one steps the old one down first. The
 * same glue for a node's {@code PoolVerticle} and the failover simulation, which differ only in
 * their {@link Site}. Lives on the pool's context (the {@link Leadership} calls it there).
 */
public final class TermRunner implements Leadership.Candidate {
  private static final Logger LOG = LoggerFactory.getLogger(TermRunner.class);
  /**
   * How long a leader's effects may leave after a write the store acknowledged: well inside the
   * 5 s after which the cluster removes a silent member, so a paused leader lets nothing out
   * once a successor may exist.
   */
  public static final long LEASE_MS = 3_000;

  /**
   * Where a term's coordinator runs and how it is reached: a node's Vert.x (its context, its
   * event bus, the pool's extensions), or the simulation's seeded world. Called on the pool's
   * context.
   */
  public interface Site {
    /**
     * A coordinator of {@code termConfig}, with its observers, neither started nor serving;
     * throws when this node cannot run it.
     */
    Coordinator open(PoolConfig termConfig);

    /**
     * Lets {@code coordinator}, started and recovered, serve the pool's addresses (and run its
     * extensions); {@code done} hears null, or the failure once what this began is undone.
     */
    void serve(Coordinator coordinator, Consumer<Throwable> done);

    /**
     * A claim of this node is under way, its leader's member having left: make ready to serve
     * (consumers registered meanwhile, {@link #serve} to use them). By default nothing.
     */
    default void standReady() {}

    /** Another node leads: what {@link #standReady} made ready goes. By default nothing. */
    default void standDown() {}

    /** Undoes {@link #open} for a coordinator that could not start, recover or serve. */
    void discard(Coordinator coordinator);

    /**
     * Lets go of {@code coordinator}, abandoned after its term: its addresses, extensions and
     * whatever {@link #open} began; {@code done} runs once they are gone.
     */
    void close(Coordinator coordinator, Runnable done);
  }

  private final PoolConfig config;
  private final Leadership leadership;
  private final Site site;
  private final long leaseMs;
  /** The coordinator of the term this node leads, or null while it stands by. */
  private Coordinator coordinator;

  /** Terms of the pool of {@code config}, claimed through {@code leadership}, run on {@code site}. */
  public TermRunner(PoolConfig config, Leadership leadership, Site site) {
    this(config, leadership, site, LEASE_MS);
  }

  TermRunner(PoolConfig config, Leadership leadership, Site site, long leaseMs) {
    this.config = config;
    this.leadership = leadership;
    this.site = site;
    this.leaseMs = leaseMs;
  }

  /** The coordinator of the term this node leads, or null while it stands by. */
  public Coordinator coordinator() {
    return coordinator;
  }

  @Override
  public void lead(long term, DurableLog.Recovered recovered, long claimedAt) {
    lead(term, recovered, Map.of(), claimedAt);
  }

  @Override
  public void lead(long term, DurableLog.Recovered recovered, Map<String, JournalTrace> traces,
      long claimedAt) {
    if (coordinator != null) {
      stepDown("a new term began while this node still led one");
    }
    PoolConfig termConfig = config.withSettings(config.settings().withTerm(term));
    LOG.info("pool {}: this node leads term {}: recovering {} jobs, {} bindings, {} hosts, {}"
        + " answers to send again", config.name(), term, recovered.image().jobs().size(),
        recovered.image().bindings().size(), recovered.image().hosts().size(),
        recovered.undelivered().size());
    Coordinator started;
    try {
      started = site.open(termConfig);
    } catch (RuntimeException e) {
      failed(term, null, e);
      return;
    }
    coordinator = started;
    started.lead(term, claimedAt, leaseMs, leadership, this::stepDown);
    try {
      // Started and recovered before it serves: nothing reaches the pool before what it recovers.
      started.start();
      started.recover(recovered, traces);
    } catch (RuntimeException e) {
      site.discard(started);
      failed(term, started, e);
      return;
    }
    site.serve(started, failure -> {
      if (failure == null) {
        LOG.info("pool {}: term {} serves", config.name(), term);
      } else if (coordinator != started) {
        // Stepped down (or stopped) while its addresses registered: the step down let go of
        // it, and the registrations it cut short are why serving failed.
        LOG.debug("pool {}: term {} given up before it served: {}", config.name(), term,
            LogText.quote(String.valueOf(failure.getMessage())));
      } else {
        site.discard(started);
        failed(term, started, failure);
      }
    });
  }

  /**
   * A claim is under way after the leader left: the site makes ready to serve (A3 in
   * docs/rules.md).
   */
  @Override
  public void claiming() {
    if (coordinator == null) {
      site.standReady();
    }
  }

  @Override
  public void anotherLeads() {
    if (coordinator == null) {
      site.standDown();
    }
  }

  /** A term that could not start: this node gives it back and stands by again. */
  private void failed(long term, Coordinator started, Throwable cause) {
    LOG.error("pool {}: term {} could not start: {}", config.name(), term,
        LogText.quote(String.valueOf(cause.getMessage())));
    if (started != null && coordinator == started) {
      coordinator = null;
      started.abandon();
    }
    leadership.resign(term);
  }

  /** Stops acting at once and stands by again (A2 in docs/rules.md). */
  @Override
  public void stepDown(String why) {
    stepDownAndWait(why, false);
  }

  /**
   * {@link #stepDown}, completing once the site let go of the coordinator, the term is given
   * back and this node's incarnations of the pool are undeployed (a WORKER incarnation busy in a
   * job stops after that job). A node that stops on purpose ({@code leaving}) says so at INFO: a
   * clean stop warns of nothing.
   */
  public Future<Void> stepDownAndWait(String why, boolean leaving) {
    Coordinator led = coordinator;
    if (led == null) {
      return Future.succeededFuture();
    }
    coordinator = null;
    if (leaving) {
      LOG.info("pool {}: steps down from term {}: {}", config.name(), led.term(),
          LogText.quote(why));
    } else {
      LOG.warn("pool {}: steps down from term {}: {}", config.name(), led.term(),
          LogText.quote(why));
    }
    led.abandon();
    List<Future<Void>> undeployed = new ArrayList<>();
    led.slots().values().forEach(slot -> undeployed.add(slot.undeployed()));
    Promise<Void> closed = Promise.promise();
    undeployed.add(closed.future());
    site.close(led, () -> {
      leadership.resign(led.term());
      closed.tryComplete();
    });
    return Future.join(undeployed).transform(ar -> Future.succeededFuture());
  }
}
