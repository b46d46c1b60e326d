package dev.shepherd.runtime;

import dev.shepherd.cluster.hosts.HostBatchWriter;
import dev.shepherd.cluster.hosts.HostCodec;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostMessages;
import dev.shepherd.cluster.hosts.HostReport;
import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.eventbus.ReplyException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A worker host of the simulation, speaking the hosts' wire protocol as {@code HostAgent} does
 * (its messages go through {@link HostCodec} and {@link HostBatchWriter} both ways): it
 * registers with whoever consumes the pool's address (every second until answered), sends
 * heartbeats, fences command batches by the highest term it has seen, registers again when a
 * coordinator that does not know it says so (dropping what it ran; only for the current
 * registration round), deploys incarnations and runs assignments on the incarnation they name,
 * and reports creations, completions and crashes to the pool's address. A job's result is its id,
 * so an answer from a second run of a job is the same result with other attempts; with bad jobs,
 * some jobs fail, crash or hang, by their id ({@link Behaviour}). The fake of a host's workers:
 * the pool's side of the protocol is the real {@code PoolHosts} and {@code HostDirectory}.
 */
final class SimHost extends SimNode {
  static final int SLOTS = 2;
  static final int CAPACITY = 2;
  static final long HEARTBEAT_MS = 250;

  private final Addresses pool;
  private long term;
  private boolean registered;
  private int round;
  /** The incarnation each slot runs (0: none). */
  private final Map<String, Integer> incarnations = new HashMap<>();
  /** The term whose command deployed each slot's incarnation. */
  private final Map<String, Long> deployedBy = new HashMap<>();
  long commandsRefused;
  long assignmentsRun;

  /** Whether jobs misbehave ({@link Behaviour}); otherwise every job succeeds. */
  private final boolean badJobs;

  SimHost(SimWorld world, String name, Addresses pool, boolean badJobs) {
    super(world, name);
    this.pool = pool;
    this.badJobs = badJobs;
    world.listen(address(), this);
  }

  String address() {
    return "host." + name;
  }

  String node() {
    return "node-" + name;
  }

  String slot(int i) {
    return name + "/w-" + i;
  }

  void start() {
    register();
    heartbeat();
  }

  private void register() {
    registered = false;
    int thisRound = ++round;
    attempt(thisRound);
  }

  private void attempt(int thisRound) {
    if (registered || thisRound != round) {
      return;
    }
    List<HostMessages.SlotOffer> slots = new ArrayList<>();
    for (int i = 0; i < SLOTS; i++) {
      slots.add(new HostMessages.SlotOffer(slot(i), CAPACITY));
    }
    world.sendToPool(this, pool.register(), HostCodec.encode(new HostMessages.Register(name,
        node(), address(), slots, HEARTBEAT_MS)), reply -> {
          if (!(reply.body() instanceof ReplyException) && thisRound == round) {
            world.log(() -> this + " registered: " + reply.body());
            registered(HostCodec.decodeRegistered(reply.body()).term());
          }
        });
    timer(1_000, () -> attempt(thisRound));
  }

  private void heartbeat() {
    if (registered) {
      world.sendToPool(this, pool.heartbeat(), HostCodec.encode(new HostMessages.Heartbeat(name,
          node(), address(), round)), null);
    }
    timer(HEARTBEAT_MS, this::heartbeat);
  }

  /** The pool took the registration. */
  private void registered(long poolTerm) {
    if (poolTerm < term) {
      return;
    }
    term = poolTerm;
    registered = true;
  }

  @Override
  void receive(SimMessage message) {
    HostCommand.Batch batch = HostCodec.decodeCommands(message.body());
    world.log(() -> this + " (term " + term + ") receives " + batch);
    if (batch.term() < term) {
      commandsRefused += batch.items().size();
      return;
    }
    term = batch.term();
    for (HostCommand command : batch.items()) {
      if (command instanceof HostCommand.Reregister r) {
        reregister(r.round());
      } else if (command instanceof HostCommand.Deploy d) {
        deploy(d.worker(), d.incarnation());
      } else if (command instanceof HostCommand.Stop s) {
        stop(s.worker(), s.incarnation());
      } else if (command instanceof HostCommand.Assign a) {
        assign(a.worker(), a.incarnation(), a.assignment(), a.job(), a.attempt());
      }
    }
  }

  private void reregister(int heartbeatRound) {
    if (heartbeatRound != round) {
      return;
    }
    world.log(this + " asked to register again by term " + term);
    incarnations.clear();
    register();
  }

  /** As {@code HostSlot.deploy}: the same number from a newer term is a new incarnation. */
  private void deploy(String worker, int incarnation) {
    int current = incarnations.getOrDefault(worker, 0);
    if (current > incarnation
        || (current == incarnation && deployedBy.getOrDefault(worker, 0L) >= term)) {
      return;
    }
    incarnations.put(worker, incarnation);
    deployedBy.put(worker, term);
    timer(1 + world.rnd.nextInt(20), () -> {
      if (incarnations.getOrDefault(worker, 0) == incarnation) {
        report(new HostReport.Created(worker, incarnation));
      }
    });
  }

  private void stop(String worker, int incarnation) {
    if (incarnations.getOrDefault(worker, 0) == incarnation) {
      incarnations.put(worker, -incarnation);
    }
  }

  private void assign(String worker, int incarnation, long token, String job, int attempt) {
    if (incarnations.getOrDefault(worker, 0) != incarnation) {
      return;
    }
    assignmentsRun++;
    Behaviour behaviour = badJobs ? Behaviour.of(job, attempt) : Behaviour.SUCCEED;
    if (behaviour == Behaviour.HANG) {
      return;
    }
    timer(2 + world.rnd.nextInt(world.rnd.nextInt(10) == 0 ? 1_500 : 150), () -> {
      if (incarnations.getOrDefault(worker, 0) != incarnation) {
        return;
      }
      switch (behaviour) {
        case CRASH -> {
          incarnations.put(worker, -incarnation);
          report(new HostReport.Stopped(worker, incarnation, Exit.CRASH,
              "java.lang.StackOverflowError in " + job));
        }
        case FAIL -> report(new HostReport.Completion(worker, token, null,
            new JobError(500, "cannot do " + job, "java.lang.IllegalStateException")));
        default -> report(new HostReport.Completion(worker, token, "result-" + job, null));
      }
    });
  }

  private void report(HostReport report) {
    world.sendToPool(this, pool.completed(),
        HostBatchWriter.write(new HostReport.Batch(name, List.of(report))), null);
  }

  /**
   * What a job does on its {@code attempt}-th run, by its id (so every run of a job, on any host
   * and under any term, does alike): most succeed; of a thousand, 6 crash their incarnation
   * every time (poison, J2), 3 hang (their timeout stops the incarnation), 3 crash only the first
   * time (a suspect that recovers), 50 fail every time and 40 only the first time (J1, J3).
   */
  enum Behaviour {
    SUCCEED, CRASH, HANG, FAIL;

    static Behaviour of(String job, int attempt) {
      int draw = Math.floorMod(job.hashCode() * 0x9E3779B1, 1_000);
      if (draw < 6) {
        return CRASH;
      } else if (draw < 9) {
        return HANG;
      } else if (draw < 12) {
        return attempt == 1 ? CRASH : SUCCEED;
      } else if (draw < 62) {
        return FAIL;
      } else if (draw < 102) {
        return attempt == 1 ? FAIL : SUCCEED;
      }
      return SUCCEED;
    }
  }
}
