package dev.shepherd.runtime;

import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.access.LeaderWait;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.OutcomeJson;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A submitter of the simulation, as a clustered {@code PoolClient} is (A4): it submits jobs with
 * ids of its own and a reply address of its own, as the submit protocol's JSON, through the real
 * {@link LeaderWait} (sent again while no coordinator consumes the pool's address), learns the
 * admission from the reply to its request (lost with the coordinator that took it), and receives
 * outcomes at its address from whichever coordinator answers. It never dies: what it saw is what
 * the test checks. With delays, one submit in five asks for up to 3 s of delay (J4) and one in
 * six for failure retries of its own (J3).
 */
class SimSubmitter extends SimNode {
  /** J3, J4: some submits are delayed, some bring failure retries of their own. */
  private final boolean delays;
  final Addresses pool;
  private int serial;
  final Set<String> accepted = new LinkedHashSet<>();
  final Set<String> rejected = new LinkedHashSet<>();
  final Map<String, List<Outcome>> answers = new LinkedHashMap<>();

  SimSubmitter(SimWorld world, String name, Addresses pool, boolean delays) {
    super(world, name);
    this.pool = pool;
    this.delays = delays;
    world.listen(address(), this);
  }

  /** How long a submit waits for its admission. */
  static final long SUBMIT_TIMEOUT_MS = 5_000;
  /** How long a submit waits out a failover ({@link LeaderWait}). */
  static final long LEADER_WAIT_MS = 10_000;

  /** This node's side of the bus, for {@link LeaderWait}: requests time out on its clock. */
  private final LeaderWait.Bus bus = new LeaderWait.Bus() {
    @Override
    public Future<Message<Object>> request(String address, Object body,
        DeliveryOptions options) {
      Promise<Message<Object>> reply = Promise.promise();
      world.sendToPool(SimSubmitter.this, address, body, message -> {
        if (message.body() instanceof ReplyException e) {
          reply.tryFail(e);
        } else {
          reply.tryComplete(message);
        }
      });
      timer(options.getSendTimeout(), () -> reply.tryFail(new ReplyException(
          ReplyFailure.TIMEOUT, "Timed out after waiting " + options.getSendTimeout() + "(ms)")));
      return reply.future();
    }

    @Override
    public void after(long delayMs, Runnable task) {
      timer(delayMs, task);
    }

    @Override
    public long monotonicMs() {
      return clock().monotonicMs();
    }
  };

  /** The failure retries a submit may ask for. */
  private static final JsonObject RETRY = new JsonObject().put("maxAttempts", 3)
      .put("backoff", new JsonObject().put("initialMs", 50).put("multiplier", 2.0)
          .put("maxMs", 400).put("jitter", 0.2));

  String address() {
    return "reply." + name;
  }

  /** Submits one job every 20-120 ms until {@code until}. */
  void submitUntil(long until) {
    if (world.now() >= until) {
      return;
    }
    String job = name + "-" + (++serial);
    JsonObject body = new JsonObject().put("job", job).put("payload", "payload-" + job)
        .put("replyTo", address());
    if (world.rnd.nextInt(3) == 0) {
      body.put("key", "k" + world.rnd.nextInt(6));
    }
    if (delays && world.rnd.nextInt(5) == 0) {
      body.put("delayMs", 1 + world.rnd.nextInt(3_000));
    }
    if (delays && world.rnd.nextInt(6) == 0) {
      body.put("retry", RETRY.copy());
    }
    // As a buffer, as SubmitBody sends one: the payload stays the raw JSON it came in. Through
    // the real LeaderWait, as a PoolClient's submit: sent again while no leader consumes.
    LeaderWait.request(bus, pool.submit(), Buffer.buffer(body.encode()),
        new DeliveryOptions().setSendTimeout(SUBMIT_TIMEOUT_MS), LEADER_WAIT_MS)
        .onSuccess(reply -> admitted(OutcomeJson.decode((JsonObject) reply.body())))
        .onFailure(e -> world.log(() -> this + " submit of " + job + " failed: " + e));
    timer(20 + world.rnd.nextInt(100), () -> submitUntil(until));
  }

  void admitted(Outcome outcome) {
    world.log(() -> this + " admitted: " + outcome);
    if (outcome instanceof Outcome.Accepted) {
      accepted.add(outcome.job());
    } else {
      rejected.add(outcome.job());
    }
  }

  /** An outcome at this submitter's address. */
  @Override
  void receive(SimMessage message) {
    Outcome outcome = OutcomeJson.decode((JsonObject) message.body());
    world.log(() -> this + " answered: " + outcome);
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
