package dev.shepherd.runtime;

import dev.shepherd.core.Exit;
import dev.shepherd.core.JobError;
import java.util.HashMap;
import java.util.Map;

/**
 * A worker host of the simulation, as {@code HostAgent} behaves: it registers with whoever
 * consumes the pool's address (every second until answered), sends heartbeats, fences commands by
 * the highest term it has seen, registers again when a coordinator that does not know it says so
 * (dropping what it ran; only once per registration round: the heartbeats that crossed a
 * re-registration must not reset it again), deploys incarnations and runs assignments on the incarnation they name,
 * and reports creations, completions and crashes to the pool's address. A job's result is its
 * id, so an answer from a second run of a job is the same result with other attempts; with bad
 * jobs, some jobs fail, crash or hang, by their id ({@link Behaviour}).
 */
final class SimHost extends SimNode {
  static final int SLOTS = 2;
  static final int CAPACITY = 2;

  private long term;
  private boolean registered;
  private int round;
  /** The incarnation each slot runs (0: none). */
  private final Map<String, Integer> incarnations = new HashMap<>();
  long commandsRefused;
  long assignmentsRun;

  /** Whether jobs misbehave ({@link Behaviour}); otherwise every job succeeds. */
  private final boolean badJobs;

  SimHost(SimWorld world, String name, boolean badJobs) {
    super(world, name);
    this.badJobs = badJobs;
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
    world.sendToPool(c -> c.register(this));
    timer(1_000, () -> attempt(thisRound));
  }

  private void heartbeat() {
    if (registered) {
      int thisRound = round;
      world.sendToPool(c -> c.heartbeat(this, thisRound));
    }
    timer(250, this::heartbeat);
  }

  /** The pool took the registration (answered on this host's context). */
  void registered(long poolTerm) {
    if (poolTerm < term) {
      return;
    }
    term = poolTerm;
    registered = true;
  }

  /** A command of {@code commandTerm}; false when fenced. */
  boolean admits(long commandTerm) {
    if (commandTerm < term) {
      commandsRefused++;
      return false;
    }
    term = commandTerm;
    return true;
  }

  void reregister(long commandTerm, int heartbeatRound) {
    if (!admits(commandTerm) || heartbeatRound != round) {
      return;
    }
    world.log(this + " asked to register again by term " + commandTerm);
    incarnations.clear();
    register();
  }

  void deploy(long commandTerm, String worker, int incarnation) {
    if (!admits(commandTerm) || incarnations.getOrDefault(worker, 0) >= incarnation) {
      return;
    }
    incarnations.put(worker, incarnation);
    timer(1 + world.rnd.nextInt(20), () -> {
      if (incarnations.getOrDefault(worker, 0) == incarnation) {
        world.sendToPool(c -> c.created(worker, incarnation));
      }
    });
  }

  void stop(long commandTerm, String worker, int incarnation) {
    if (admits(commandTerm) && incarnations.getOrDefault(worker, 0) == incarnation) {
      incarnations.put(worker, -incarnation);
    }
  }

  void assign(long commandTerm, String worker, int incarnation, long token, String job,
      int attempt) {
    if (!admits(commandTerm) || incarnations.getOrDefault(worker, 0) != incarnation) {
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
          world.sendToPool(c -> c.stopped(worker, incarnation, Exit.CRASH,
              "java.lang.StackOverflowError in " + job));
        }
        case FAIL -> world.sendToPool(c -> c.completed(worker, token, null,
            new JobError(500, "cannot do " + job, "java.lang.IllegalStateException")));
        default -> world.sendToPool(c -> c.completed(worker, token, "result-" + job, null));
      }
    });
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
