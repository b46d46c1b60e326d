package dev.shepherd.runtime;

import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;

/**
 * An operator of the simulation (J5): every 0.5-1.5 s it lists the pool's newest dead letters
 * (from whichever coordinator consumes the pool's address) and replays or discards one it has
 * not handled yet, through the pool's dead-letter addresses. A replay answers only its
 * admission (the replayed job's own reply address is gone); it is counted.
 */
final class SimOperator extends SimSubmitter {
  private final Set<String> handled = new HashSet<>();
  long replays;
  long replaysAccepted;
  long discards;

  SimOperator(SimWorld world, String name, Addresses pool) {
    super(world, name, pool, false);
  }

  void operateUntil(long until) {
    if (world.now() >= until) {
      return;
    }
    world.sendToPool(this, pool.deadLetters(), new JsonObject().put("offset", 0)
        .put("limit", 10), reply -> {
          if (reply.body() instanceof JsonObject page) {
            listed(page.getJsonArray("entries"));
          }
        });
    timer(500 + world.rnd.nextInt(1_000), () -> operateUntil(until));
  }

  /** The newest dead letters a coordinator listed. */
  private void listed(JsonArray entries) {
    for (int i = 0; i < entries.size(); i++) {
      String job = entries.getJsonObject(i).getString("job");
      if (handled.add(job)) {
        JsonObject body = new JsonObject().put("job", job);
        if (world.rnd.nextInt(3) == 0) {
          discards++;
          world.sendToPool(this, pool.discardDead(), body, null);
        } else {
          replays++;
          world.sendToPool(this, pool.replayDead(), body, reply -> {
            if (!(reply.body() instanceof ReplyException)) {
              replaysAccepted++;
            }
          });
        }
        return;
      }
    }
  }
}
