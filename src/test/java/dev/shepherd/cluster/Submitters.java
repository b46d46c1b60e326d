package dev.shepherd.cluster;

import static dev.shepherd.runtime.PoolFixture.join;

import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Applications submitting over the event bus with a {@code replyTo} address of their own, which
 * count every outcome they are sent per job: a job answered twice shows up here.
 */
final class Submitters {
  private final Vertx vertx;
  private final Addresses addresses;
  private final String replyTo;
  private final MessageConsumer<Object> consumer;
  /** Every outcome received, per job, in arrival order. */
  final Map<String, List<JsonObject>> outcomes = new ConcurrentHashMap<>();

  Submitters(Vertx vertx, String pool) {
    this.vertx = vertx;
    this.addresses = Addresses.forPool(pool);
    this.replyTo = "test.outcomes." + pool;
    this.consumer = vertx.eventBus().consumer(replyTo, m -> {
      JsonObject outcome = (JsonObject) m.body();
      outcomes.computeIfAbsent(outcome.getString("job"), j -> new CopyOnWriteArrayList<>())
          .add(outcome);
    });
    join(consumer.completion());
  }

  /** Submits job {@code job}; the future holds the admission ({@code accepted} or a rejection). */
  Future<JsonObject> submit(String job, JsonObject payload) {
    return vertx.eventBus().request(addresses.submit(),
            new JsonObject().put("job", job).put("payload", payload).put("replyTo", replyTo),
            new DeliveryOptions().setSendTimeout(60_000))
        .map(m -> (JsonObject) m.body());
  }

  /** How many jobs have had at least one outcome. */
  int answered() {
    return outcomes.size();
  }

  /** The one outcome of {@code job}; fails when it had none or more than one. */
  JsonObject only(String job) {
    List<JsonObject> got = outcomes.get(job);
    if (got == null || got.size() != 1) {
      throw new AssertionError("job " + job + " was answered " + (got == null ? 0 : got.size())
          + " times: " + got);
    }
    return got.get(0);
  }
}
