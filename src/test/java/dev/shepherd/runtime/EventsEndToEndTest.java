package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.STEP;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a pool publishes on {@code <prefix>.events} (section 6) while its slots crash, restart,
 * exceed the budget and retire, and while it stops: every event carries the pool and the time.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EventsEndToEndTest {

  private static JsonObject awaitEvent(List<JsonObject> events, Predicate<JsonObject> match) {
    await().atMost(STEP).until(() -> events.stream().anyMatch(match));
    return events.stream().filter(match).findFirst().orElseThrow();
  }

  private static Predicate<JsonObject> type(String type) {
    return e -> type.equals(e.getString("type"));
  }

  @Test
  void events_show_restart_phases_budget_retirement_jobs_stats_and_state(Vertx vertx) {
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    join(vertx.eventBus().<JsonObject>consumer(Addresses.forPool("ev").events(),
        m -> events.add(m.body())).completion());
    JsonObject config = demoPool("ev", 1);
    supervision(config).put("maxRestarts", 1);
    String deployment = deployReady(vertx, config);

    run(vertx, "ev", crash());
    JsonObject restart = awaitEvent(events, type("restart"));
    awaitEvent(events, e -> type("phase").test(e) && "IDLE".equals(e.getString("phase"))
        && e.getInteger("incarnation") == 2);
    run(vertx, "ev", crash());
    JsonObject budget = awaitEvent(events, type("budget"));
    JsonObject retired = awaitEvent(events, type("retired"));
    JsonObject job = awaitEvent(events, type("job"));
    JsonObject stats = awaitEvent(events, type("stats"));
    join(vertx.undeploy(deployment));
    awaitEvent(events, e -> type("state").test(e) && "STOPPED".equals(e.getString("state")));

    assertThat(events).allSatisfy(e -> {
      assertThat(e.getString("pool")).isEqualTo("ev");
      assertThat(e.getLong("at")).isPositive();
    });
    assertThat(restart.getString("worker")).isEqualTo("w-0");
    assertThat(restart.getString("exit")).isEqualTo("CRASH");
    assertThat(restart.getJsonArray("replaced")).isEqualTo(new JsonArray().add("w-0"));
    assertThat(budget.getInteger("maximumRestarts")).isEqualTo(1);
    assertThat(budget.getString("reaction")).isEqualTo("RETIRE_WORKER");
    assertThat(retired.getString("worker")).isEqualTo("w-0");
    assertThat(retired.getString("retirement")).isEqualTo("REPLACEMENT_UNAVAILABLE");
    assertThat(job.getJsonObject("outcome").getString("type")).isEqualTo("interrupted");
    assertThat(stats.getJsonObject("snapshot").getString("name")).isEqualTo("ev");
  }
}
