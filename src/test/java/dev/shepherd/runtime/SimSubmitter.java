package dev.shepherd.runtime;

import dev.shepherd.core.Backoff;
import dev.shepherd.core.FailureRetry;
import dev.shepherd.core.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A submitter of the simulation, as a clustered {@code PoolClient} is (A4): it submits jobs with
 * ids of its own and a reply address of its own, learns the admission from the reply to its
 * request (lost with the coordinator that took it), and receives outcomes at its address from
 * whichever coordinator answers. It never dies: what it saw is what the test checks. With delays,
 * one submit in five asks for up to 3 s of delay (J4) and one in six for failure retries (J3).
 */
class SimSubmitter extends SimNode {
  /** J3, J4: some submits are delayed, some bring failure retries of their own. */
  private final boolean delays;
  private int serial;
  final Set<String> accepted = new LinkedHashSet<>();
  final Set<String> rejected = new LinkedHashSet<>();
  final Map<String, List<Outcome>> answers = new LinkedHashMap<>();

  SimSubmitter(SimWorld world, String name, boolean delays) {
    super(world, name);
    this.delays = delays;
  }

  /** The failure retries a submit may ask for. */
  private static final FailureRetry RETRY = new FailureRetry(3, new Backoff(50, 2.0, 400, 0.2));

  String address() {
    return "reply." + name;
  }

  /** Submits one job every 20-120 ms until {@code until}. */
  void submitUntil(long until) {
    if (world.now() >= until) {
      return;
    }
    String job = name + "-" + (++serial);
    String key = world.rnd.nextInt(3) == 0 ? "k" + world.rnd.nextInt(6) : null;
    long delayMs = delays && world.rnd.nextInt(5) == 0 ? 1 + world.rnd.nextInt(3_000) : 0;
    FailureRetry retry = delays && world.rnd.nextInt(6) == 0 ? RETRY : null;
    world.sendToPool(c -> c.submit(this, job, key, delayMs, retry));
    timer(20 + world.rnd.nextInt(100), () -> submitUntil(until));
  }

  void admitted(Outcome outcome) {
    if (outcome instanceof Outcome.Accepted) {
      accepted.add(outcome.job());
    } else {
      rejected.add(outcome.job());
    }
  }

  void answered(Outcome outcome) {
    answers.computeIfAbsent(outcome.job(), job -> new ArrayList<>()).add(outcome);
  }

  /** Accepted jobs without an answer yet. */
  int waiting() {
    int count = 0;
    for (String job : accepted) {
      if (!answers.containsKey(job)) {
        count++;
      }
    }
    return count;
  }
}
