package dev.shepherd.runtime;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An operator of the simulation (J5): every 0.5-1.5 s it lists the pool's newest dead letters
 * (from whichever coordinator consumes the pool's address) and replays or discards one it has
 * not handled yet. A replay's admission and answer come to it, so it is checked as a submitter
 * is: a replay it saw accepted is answered, once. It replays a job id at most once, so the
 * answers of one id at its address are those of one run.
 */
final class SimOperator extends SimSubmitter {
  private final Set<String> handled = new HashSet<>();
  long replays;
  long discards;

  SimOperator(SimWorld world, String name) {
    super(world, name, false);
  }

  void operateUntil(long until) {
    if (world.now() >= until) {
      return;
    }
    world.sendToPool(c -> c.listDead(this));
    timer(500 + world.rnd.nextInt(1_000), () -> operateUntil(until));
  }

  /** The newest dead letters a coordinator listed. */
  void listed(List<String> jobs) {
    for (String job : jobs) {
      if (handled.add(job)) {
        if (world.rnd.nextInt(3) == 0) {
          discards++;
          world.sendToPool(c -> c.discard(job));
        } else {
          replays++;
          world.sendToPool(c -> c.replay(this, job));
        }
        return;
      }
    }
  }
}
