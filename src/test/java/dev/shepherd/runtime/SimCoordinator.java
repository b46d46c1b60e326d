package dev.shepherd.runtime;

import dev.shepherd.core.DeadLetter;
import dev.shepherd.core.Effect;
import dev.shepherd.core.Exit;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.JobError;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.core.Transition;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node that lists the durable pool, as the HA runtime runs it (A1-A3): a standby tries the
 * leader lock every 100 ms; the one that gets it claims the next term from the store (reading the
 * log in the same step), recovers the pool from it, sends again the answers never reported
 * delivered, and consumes the pool's address. Every effect goes through a {@link DurableGate}:
 * after the records it follows are written, within the lease. It steps down when a write is
 * refused or when its member merges back into the cluster; then it stands by again. Its host
 * directory is the runtime's in small: registrations, heartbeats (an unknown host is asked to
 * register again), and a heartbeat lease.
 */
final class SimCoordinator extends SimNode {
  static final long HOST_TIMEOUT_MS = 2_000;

  /** A submitter's reply channel: the request's own reply, and its durable reply address. */
  record Reply(SimSubmitter submitter, String address) {}

  /** One term of leadership. */
  private final class Term {
    final long term;
    final Pool pool;
    final DurableGate gate;
    /** The incarnation each remote slot was last told to deploy. */
    final Map<String, Integer> deployed = new HashMap<>();
    /** Hosts by id: up, and when last heard. */
    final Map<String, long[]> hosts = new LinkedHashMap<>();
    boolean active = true;

    Term(long term, long claimedAt) {
      this.term = term;
      this.pool = Pool.create(settings.withTerm(term));
      this.gate = new DurableGate(SimWorld.LEASE_MS, claimedAt, pool::unanswered,
          new DurableGate.Output() {
            @Override
            public void release(Effect effect) {
              Term.this.release(effect);
            }

            @Override
            public void write(DurableGate.Batch batch) {
              Term.this.write(batch);
            }
          });
    }

    void apply(PoolEvent event) {
      if (!active) {
        return;
      }
      Transition t = pool.apply(event);
      if (t instanceof Transition.Applied applied) {
        gate.offer(applied.effects());
      }
      gate.pump(world.now());
    }

    void write(DurableGate.Batch batch) {
      world.log(() -> SimCoordinator.this + "/" + term + " writes " + batch);
      world.store.write(SimCoordinator.this, term, SimStore.durable(batch),
          batch.checkpoint() ? SimStore.durable(pool.durableImage()) : null, ok -> {
            if (!active) {
              return;
            }
            if (ok) {
              gate.written(batch.id(), world.now());
            } else {
              stepDown("the store refused batch " + batch.id() + " of term " + term);
            }
          });
    }

    void release(Effect effect) {
      world.log(() -> SimCoordinator.this + "/" + term + " out: " + effect);
      if (effect instanceof Effect.Respond respond) {
        fenced(() -> "answered " + respond.outcome());
        answer(respond.replyTo(), respond.outcome());
      } else if (effect instanceof Effect.Assign a) {
        fenced(() -> "assigned " + a.job() + " to " + a.worker());
        SimHost host = hostOf(a.worker());
        int incarnation = deployed.getOrDefault(a.worker(), 0);
        world.send(host, () -> host.assign(term, a.worker(), incarnation, a.assignment(), a.job(),
            a.attempt()));
      } else if (effect instanceof Effect.Deploy d) {
        deployed.put(d.worker(), d.incarnation());
        SimHost host = hostOf(d.worker());
        world.send(host, () -> host.deploy(term, d.worker(), d.incarnation()));
      } else if (effect instanceof Effect.Stop s && s.reason() != Exit.NODE_LOST) {
        SimHost host = hostOf(s.worker());
        world.send(host, () -> host.stop(term, s.worker(), s.incarnation()));
      } else if (effect instanceof Effect.StartTimer start) {
        world.at(start.at(), () -> deliver(() -> apply(
            new PoolEvent.TimerFired(start.timer(), world.now()))));
      }
    }

    /** A2: nothing leaves under this term once a newer one exists. */
    void fenced(java.util.function.Supplier<String> what) {
      if (world.store.term > term) {
        world.violation(SimCoordinator.this + " of term " + term + " " + what.get()
            + " while term " + world.store.term + " exists");
      }
    }

    void answer(Object replyTo, Outcome outcome) {
      if (replyTo instanceof Reply reply) {
        if (outcome instanceof Outcome.Accepted || outcome instanceof Outcome.Rejected) {
          world.send(reply.submitter(), () -> reply.submitter().admitted(outcome));
          return;
        }
        replyTo = reply.address();
      }
      if (replyTo instanceof String address) {
        SimSubmitter submitter = submitters.get(address);
        world.send(submitter, () -> submitter.answered(outcome));
      }
    }

    void checkHosts() {
      if (!active) {
        return;
      }
      gate.renew(world.now());
      for (Map.Entry<String, long[]> entry : new ArrayList<>(hosts.entrySet())) {
        long[] host = entry.getValue();
        if (host[0] == 1 && world.now() - host[1] > HOST_TIMEOUT_MS) {
          host[0] = 0;
          apply(new PoolEvent.HostLost(entry.getKey(), "no heartbeat", world.now()));
        }
      }
      timer(500, this::checkHosts);
    }
  }

  private final PoolSettings settings;
  private final Map<String, SimHost> hostsByName;
  private final Map<String, SimSubmitter> submitters;
  private Term leading;
  private boolean claiming;
  int termsLed;

  SimCoordinator(SimWorld world, String name, PoolSettings settings,
      Map<String, SimHost> hostsByName, Map<String, SimSubmitter> submitters) {
    super(world, name);
    this.settings = settings;
    this.hostsByName = hostsByName;
    this.submitters = submitters;
  }

  boolean leading() {
    return leading != null && leading.active && state == State.RUNNING;
  }

  long term() {
    return leading == null ? -1 : leading.term;
  }

  void start() {
    timer(world.rnd.nextInt(100), this::tryLead);
  }

  private SimHost hostOf(String worker) {
    return hostsByName.get(worker.substring(0, worker.indexOf('/')));
  }

  // ---- leadership (A2) ----------------------------------------------------------------------

  private void tryLead() {
    if (leading == null && !claiming && !isolated && world.lockHolder == null) {
      world.lockHolder = this;
      claiming = true;
      long sentAt = world.now();
      world.store.claim(this, claimed -> {
        claiming = false;
        if (claimed == null || world.lockHolder != this) {
          if (world.lockHolder == this) {
            world.lockHolder = null;
          }
          return;
        }
        lead(claimed, sentAt);
      });
    }
    timer(100, this::tryLead);
  }

  private void lead(SimStore.Claimed claimed, long claimedAt) {
    Term t = new Term(claimed.term(), claimedAt);
    leading = t;
    termsLed++;
    DurableLog.Recovered recovered =
        DurableLog.recover(claimed.base(), claimed.batches(), claimed.previousTerm());
    world.recovered(recovered.image());
    world.log(this + " leads term " + t.term + ": " + recovered.image().jobs().size()
        + " jobs, " + recovered.undelivered().size() + " answers to send again");
    t.gate.offer(t.pool.start());
    Transition r = t.pool.apply(new PoolEvent.Recover(recovered.image(), world.now()));
    if (!(r instanceof Transition.Applied applied)) {
      world.violation(this + " could not recover: " + r);
      return;
    }
    t.gate.offer(applied.effects());
    t.gate.resend(recovered.undelivered());
    world.consumers.add(this);
    t.gate.pump(world.now());
    t.checkHosts();
  }

  private void stepDown(String why) {
    Term t = leading;
    if (t == null) {
      return;
    }
    world.log(this + " steps down from term " + t.term + ": " + why);
    t.active = false;
    t.gate.close();
    leading = null;
    world.consumers.remove(this);
    if (world.lockHolder == this) {
      world.lockHolder = null;
    }
  }

  @Override
  void merged() {
    stepDown("its member merged back into the cluster");
  }

  // ---- the pool's address -------------------------------------------------------------------

  /**
   * A submit as the bus delivers it: the payload as the {@link RawJson} it arrived in, {@code
   * delayMs} (J4) and {@code retry} (J3) as the submitter gave them.
   */
  void submit(SimSubmitter submitter, String job, String key, long delayMs, FailureRetry retry) {
    if (leading != null) {
      RawJson payload = new RawJson(("\"payload-" + job + "\"").getBytes(StandardCharsets.UTF_8));
      leading.apply(new PoolEvent.Submit(job, payload, key,
          new Reply(submitter, submitter.address()), 0, payload.length(), delayMs, retry,
          world.now()));
    }
  }

  /** J5: an operator asks for the newest dead letters; the ids go back to it. */
  void listDead(SimOperator operator) {
    if (leading != null && leading.active) {
      List<String> ids = leading.pool.deadLetters(0, 10).stream().map(DeadLetter::job).toList();
      world.send(operator, () -> operator.listed(ids));
    }
  }

  /** J5: replays a dead letter; its admission and answer go to the operator. */
  void replay(SimOperator operator, String job) {
    if (leading != null) {
      leading.apply(new PoolEvent.ReplayDead(job, new Reply(operator, operator.address()),
          world.now()));
    }
  }

  void discard(String job) {
    if (leading != null) {
      leading.apply(new PoolEvent.DiscardDead(job, world.now()));
    }
  }

  void register(SimHost host) {
    Term t = leading;
    if (t == null || !t.active) {
      return;
    }
    List<SlotSpec> slots = new ArrayList<>();
    for (int i = 0; i < SimHost.SLOTS; i++) {
      slots.add(new SlotSpec(host.slot(i), SimHost.CAPACITY));
    }
    Transition r = t.pool.apply(new PoolEvent.HostRegistered(host.name, host.name, slots,
        world.now()));
    if (r instanceof Transition.Applied applied) {
      t.gate.offer(applied.effects());
      t.hosts.put(host.name, new long[] {1, world.now()});
      world.send(host, () -> host.registered(t.term));
    }
    t.gate.pump(world.now());
  }

  void heartbeat(SimHost host, int round) {
    Term t = leading;
    if (t == null || !t.active) {
      return;
    }
    long[] known = t.hosts.get(host.name);
    if (known == null || known[0] == 0) {
      world.send(host, () -> host.reregister(t.term, round));
    } else {
      known[1] = world.now();
    }
  }

  void created(String worker, int incarnation) {
    if (leading != null) {
      leading.apply(new PoolEvent.WorkerCreated(worker, incarnation, world.now()));
    }
  }

  void completed(String worker, long token, Object result, JobError error) {
    if (leading != null) {
      long bytes = result instanceof String text ? text.length() : 0;
      leading.apply(new PoolEvent.Completed(worker, token, result, error, bytes, world.now()));
    }
  }

  /** A host's incarnation crashed (J1: an {@code Error} from the handler). */
  void stopped(String worker, int incarnation, Exit exit, String cause) {
    if (leading != null) {
      leading.apply(new PoolEvent.WorkerStopped(worker, incarnation, exit, cause, world.now()));
    }
  }
}
