package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.hang;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slot;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Exit;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Slots with a capacity above one, end to end (C2, C5): concurrent assignments up to the capacity
 * and no further, in both threading models; a timeout stops every assignment of the slot; and a
 * keyed job whose slot is full while the backlog is full is rejected (P4).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CapacityEndToEndTest {

  private static Future<Outcome> submit(Vertx vertx, String job, JsonObject payload) {
    return PoolClient.create(vertx, "wide").outcome(JobRequest.of(payload).withJob(job));
  }

  @ParameterizedTest
  @ValueSource(strings = {"EVENT_LOOP", "WORKER"})
  void C2_C5_a_slot_runs_up_to_its_capacity_at_once_and_queues_the_rest(String threading,
      Vertx vertx) {
    JsonObject config = demoPool("wide", 1);
    worker(config).put("threading", threading).put("maxConcurrency", 3);
    deployReady(vertx, config);

    List<Future<Outcome>> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(submit(vertx, "j" + i, sleep(400)));
    }
    JsonObject busy = awaitStatus(vertx, "wide", s -> slot(s, "w-0").getInteger("inFlight") == 3);

    assertThat(slot(busy, "w-0").getInteger("capacity")).isEqualTo(3);
    assertThat(slot(busy, "w-0").getString("phase")).isEqualTo("ASSIGNED");
    assertThat(slot(busy, "w-0").getJsonArray("assignments")).hasSize(3);
    assertThat(busy.getJsonObject("backlog").getInteger("length")).isEqualTo(1);
    for (Future<Outcome> job : jobs) {
      assertThat(join(job)).isInstanceOf(Outcome.Completed.class);
    }
  }

  @Test
  void P14_a_hung_assignment_stops_the_slot_and_interrupts_every_assignment_it_held(
      Vertx vertx) {
    JsonObject config = demoPool("wide", 1).put("jobTimeoutMs", 300);
    worker(config).put("threading", "EVENT_LOOP").put("maxConcurrency", 2);
    deployReady(vertx, config);

    Future<Outcome> hung = submit(vertx, "hung", hang());
    Future<Outcome> neighbour = submit(vertx, "neighbour", sleep(2_000));

    for (Future<Outcome> job : List.of(hung, neighbour)) {
      assertThat(join(job)).isInstanceOfSatisfying(Outcome.Interrupted.class, i ->
          assertThat(i.reason()).isInstanceOfSatisfying(Interruption.WorkerStopped.class,
              w -> assertThat(w.exit()).isEqualTo(Exit.TIMEOUT)));
    }
  }

  @Test
  void P4_a_keyed_job_for_a_full_slot_is_rejected_when_the_backlog_is_full(Vertx vertx) {
    deployReady(vertx, demoPool("wide", 2).put("backlogCapacity", 0));
    PoolClient client = PoolClient.create(vertx, "wide");
    join(client.rebalance("k", "w-0"));
    Future<Outcome> busy = client.outcome(JobRequest.of(sleep(300)).withJob("busy").withKey("k"));
    awaitStatus(vertx, "wide", PoolFixture.running("w-0", "busy"));

    Outcome keyed = run(vertx, "wide", JobRequest.of(echo(1)).withJob("keyed").withKey("k"));
    Outcome free = run(vertx, "wide", JobRequest.of(echo(2)).withJob("free"));

    assertThat(keyed).isInstanceOfSatisfying(Outcome.Rejected.class, r -> {
      assertThat(r.reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
      assertThat(r.payload()).isEqualTo(echo(1));
    });
    assertThat(free).isInstanceOfSatisfying(Outcome.Completed.class,
        c -> assertThat(c.worker()).isEqualTo("w-1"));
    assertThat(join(busy)).isInstanceOf(Outcome.Completed.class);
  }
}
