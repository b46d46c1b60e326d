package dev.shepherd.runtime;

import java.util.HashMap;
import java.util.Map;

/**
 * A worker host of the simulation, as {@code HostAgent} behaves: it registers with whoever
 * consumes the pool's address (every second until answered), sends heartbeats, fences commands by
 * the highest term it has seen, registers again when a coordinator that does not know it says so
 * (dropping what it ran; only once per registration round: the heartbeats that crossed a
 * re-registration must not reset it again), deploys incarnations and runs assignments on the incarnation they name,
 * and reports creations and completions to the pool's address. A job's result is its id, so an
 * answer from a second run of a job is the same result with other attempts.
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

  SimHost(SimWorld world, String name) {
    super(world, name);
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

  void assign(long commandTerm, String worker, int incarnation, long token, String job) {
    if (!admits(commandTerm) || incarnations.getOrDefault(worker, 0) != incarnation) {
      return;
    }
    assignmentsRun++;
    timer(2 + world.rnd.nextInt(world.rnd.nextInt(10) == 0 ? 1_500 : 150), () -> {
      if (incarnations.getOrDefault(worker, 0) == incarnation) {
        world.sendToPool(c -> c.completed(worker, token, "result-" + job));
      }
    });
  }
}
