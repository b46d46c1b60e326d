package dev.shepherd.app;

import static dev.shepherd.app.AppFixture.submitBody;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.crash;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.fail;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.phaseIs;
import static dev.shepherd.runtime.PoolFixture.running;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static dev.shepherd.runtime.PoolFixture.slots;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP API of the running application (section 7): the outcome in the body and its status
 * code, affinity and rebalance (P4, P5), cancel (P17), snapshots, health, and a graceful stop of
 * the application with callers still waiting (P16).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HttpApiTest {

  private static final String JOBS = "/api/pools/jobs/jobs";

  private static JsonObject body(HttpResponse<Buffer> response) {
    return response.bodyAsJsonObject();
  }

  @Nested
  class Submit {

    @Test
    void completed_and_failed_answer_200_with_the_outcome(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1));

      HttpResponse<Buffer> completed = app.post(JOBS, submitBody("ok", echo("hi")));
      HttpResponse<Buffer> failed = app.post(JOBS, submitBody("bad", fail("nope")));

      assertThat(completed.statusCode()).isEqualTo(200);
      assertThat(body(completed)).isEqualTo(new JsonObject().put("type", "completed")
          .put("job", "ok").put("result", new JsonObject().put("worker", "w-0")
              .put("incarnation", 1).put("echo", "hi"))
          .put("worker", "w-0").put("attempts", 1));
      assertThat(completed.getHeader("Content-Type")).startsWith("application/json");
      assertThat(failed.statusCode()).isEqualTo(200);
      assertThat(body(failed).getString("type")).isEqualTo("failed");
      assertThat(body(failed).getJsonObject("error"))
          .isEqualTo(new JsonObject().put("code", 500).put("message", "nope"));
    }

    @Test
    void P9_interrupted_answers_503_with_the_reason_and_the_payload(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1));

      HttpResponse<Buffer> response = app.post(JOBS, submitBody("c", crash()));

      assertThat(response.statusCode()).isEqualTo(503);
      JsonObject outcome = body(response);
      assertThat(outcome.getString("type")).isEqualTo("interrupted");
      assertThat(outcome.getJsonObject("payload")).isEqualTo(crash());
      assertThat(outcome.getJsonObject("reason").getString("kind")).isEqualTo("WORKER_STOPPED");
      assertThat(outcome.getJsonObject("reason").getString("exit")).isEqualTo("CRASH");
      assertThat(outcome.getJsonObject("reason").getString("worker")).isEqualTo("w-0");
    }

    @Test
    void P3_backlog_full_answers_429_with_a_whole_Retry_After_and_the_payload(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1).put("backlogCapacity", 0));
      Future<HttpResponse<Buffer>> busy =
          app.send(HttpMethod.POST, JOBS, submitBody("busy", sleep(60_000)).encode());
      awaitStatus(vertx, "jobs", running("w-0", "busy"));

      HttpResponse<Buffer> rejected = app.post(JOBS, submitBody("r", echo("back")));

      assertThat(rejected.statusCode()).isEqualTo(429);
      assertThat(Integer.parseInt(rejected.getHeader("Retry-After"))).isGreaterThanOrEqualTo(1);
      assertThat(body(rejected).getString("reason")).isEqualTo("BACKLOG_FULL");
      assertThat(body(rejected).getJsonObject("payload")).isEqualTo(echo("back"));
      app.call(HttpMethod.DELETE, JOBS + "/busy", null); // ends its sleep: the slot frees
      assertThat(join(busy).statusCode()).isEqualTo(200);
      assertThat(body(join(busy)).getString("type")).isEqualTo("cancelled");
    }

    @Test
    void P15_other_rejections_answer_409(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1));
      Future<HttpResponse<Buffer>> first =
          app.send(HttpMethod.POST, JOBS, submitBody("same", sleep(300)).encode());
      awaitStatus(vertx, "jobs", running("w-0", "same"));

      HttpResponse<Buffer> duplicate = app.post(JOBS, submitBody("same", echo(1)));

      assertThat(duplicate.statusCode()).isEqualTo(409);
      assertThat(body(duplicate).getString("reason")).isEqualTo("DUPLICATE_JOB");
      assertThat(join(first).statusCode()).isEqualTo(200);
    }

    @Test
    void P11_every_slot_retired_answers_409_NO_RECOVERABLE_WORKERS_and_health_is_down(
        Vertx vertx) {
      JsonObject pool = demoPool("jobs", 1);
      supervision(pool).put("policy", "TEMPORARY");
      AppFixture app = AppFixture.start(vertx, pool);
      assertThat(app.get("/health").statusCode()).isEqualTo(200);

      app.post(JOBS, submitBody("c", crash()));
      awaitStatus(vertx, "jobs", phaseIs("w-0", "RETIRED"));
      HttpResponse<Buffer> rejected = app.post(JOBS, submitBody("late", echo(1)));
      HttpResponse<Buffer> health = app.get("/health");

      assertThat(rejected.statusCode()).isEqualTo(409);
      assertThat(body(rejected).getString("reason")).isEqualTo("NO_RECOVERABLE_WORKERS");
      assertThat(health.statusCode()).isEqualTo(503);
      assertThat(health.bodyAsString()).contains("DOWN").contains("jobs");
    }

    @Test
    void wait_false_answers_the_admission_at_once(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1));

      HttpResponse<Buffer> admission = app.post(JOBS + "?wait=false",
          submitBody("later", sleep(300)));

      assertThat(admission.statusCode()).isEqualTo(200);
      assertThat(body(admission))
          .isEqualTo(new JsonObject().put("type", "accepted").put("job", "later"));
      assertThat(awaitStatus(vertx, "jobs", s -> s.getJsonObject("counters")
          .getLong("completed") == 1).getJsonObject("counters").getLong("accepted")).isEqualTo(1);
    }
  }

  @Nested
  class AffinityAndCancel {

    @Test
    void P4_P5_rebalance_over_HTTP_moves_later_jobs_of_the_key(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 3));
      JsonObject keyed = submitBody(null, echo(1)).put("key", "tenant-7");
      String bound = body(app.post(JOBS, keyed)).getString("worker");
      String other = bound.equals("w-2") ? "w-0" : "w-2";

      HttpResponse<Buffer> again = app.post(JOBS, keyed);
      HttpResponse<Buffer> moved = app.post("/api/pools/jobs/rebalance",
          new JsonObject().put("key", "tenant-7").put("worker", other));
      HttpResponse<Buffer> after = app.post(JOBS, keyed);

      assertThat(body(again).getString("worker")).isEqualTo(bound);
      assertThat(moved.statusCode()).isEqualTo(200);
      assertThat(body(moved)).isEqualTo(new JsonObject().put("key", "tenant-7").put("worker", other));
      assertThat(body(after).getString("worker")).isEqualTo(other);
    }

    @Test
    void P5_rebalance_refusals_answer_409_with_the_error_name(Vertx vertx) {
      JsonObject pool = demoPool("jobs", 2);
      supervision(pool).put("policy", "TEMPORARY");
      AppFixture app = AppFixture.start(vertx, pool);
      app.post(JOBS, submitBody("c", crash()));
      // The job runs on whichever slot was up first; that one retires.
      JsonObject status = awaitStatus(vertx, "jobs", s -> slots(s).stream()
          .anyMatch(slot -> "RETIRED".equals(((JsonObject) slot).getString("phase"))));
      String gone = slots(status).stream().map(JsonObject.class::cast)
          .filter(slot -> "RETIRED".equals(slot.getString("phase")))
          .findFirst().orElseThrow().getString("id");

      HttpResponse<Buffer> unknown = app.post("/api/pools/jobs/rebalance",
          new JsonObject().put("key", "k").put("worker", "w-42"));
      HttpResponse<Buffer> retired = app.post("/api/pools/jobs/rebalance",
          new JsonObject().put("key", "k").put("worker", gone));

      assertThat(unknown.statusCode()).isEqualTo(409);
      assertThat(body(unknown).getString("error")).isEqualTo("UNKNOWN_WORKER");
      assertThat(body(unknown).getString("message")).contains("w-42");
      assertThat(retired.statusCode()).isEqualTo(409);
      assertThat(body(retired).getString("error")).isEqualTo("REBALANCE_TO_RETIRED_WORKER");
    }

    @Test
    void P17_delete_cancels_a_waiting_job_and_its_caller_gets_cancelled(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1));
      Future<HttpResponse<Buffer>> busy =
          app.send(HttpMethod.POST, JOBS, submitBody("busy", sleep(60_000)).encode());
      awaitStatus(vertx, "jobs", running("w-0", "busy"));
      Future<HttpResponse<Buffer>> queued =
          app.send(HttpMethod.POST, JOBS, submitBody("q", echo(1)).encode());
      awaitStatus(vertx, "jobs", s -> s.getJsonObject("backlog").getInteger("length") == 1);

      HttpResponse<Buffer> cancel = app.call(HttpMethod.DELETE, JOBS + "/q", null);
      HttpResponse<Buffer> again = app.call(HttpMethod.DELETE, JOBS + "/q", null);

      assertThat(cancel.statusCode()).isEqualTo(200);
      assertThat(body(cancel)).isEqualTo(new JsonObject().put("job", "q").put("cancelled", true));
      assertThat(body(again)).isEqualTo(new JsonObject().put("job", "q").put("cancelled", false));
      assertThat(join(queued).statusCode()).isEqualTo(200);
      assertThat(body(join(queued)))
          .isEqualTo(new JsonObject().put("type", "cancelled").put("job", "q"));
      app.call(HttpMethod.DELETE, JOBS + "/busy", null); // ends its sleep: the slot frees
      assertThat(join(busy).statusCode()).isEqualTo(200);
      assertThat(body(join(busy)).getString("type")).isEqualTo("cancelled");
    }
  }

  @Nested
  class Snapshots {

    @Test
    void pools_are_listed_and_each_has_its_snapshot(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("beta", 1), demoPool("alpha", 2));

      JsonObject list = app.get("/api/pools").bodyAsJsonObject();
      JsonObject alpha = app.status("alpha");

      assertThat(list.getJsonArray("pools")).hasSize(2);
      assertThat(list.getJsonArray("pools").getJsonObject(0).getString("name")).isEqualTo("alpha");
      assertThat(alpha.getString("name")).isEqualTo("alpha");
      assertThat(alpha.getJsonArray("slots")).hasSize(2);
      assertThat(alpha.fieldNames()).contains("state", "backlog", "counters", "budget");
    }

    @Test
    void an_unknown_pool_answers_404_UNKNOWN_POOL(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx, demoPool("jobs", 1));

      for (HttpResponse<Buffer> response : java.util.List.of(
          app.get("/api/pools/nope"),
          app.post("/api/pools/nope/jobs", submitBody("j", echo(1))),
          app.post("/api/pools/nope/rebalance", new JsonObject().put("key", "k").put("worker", "w-0")),
          app.call(HttpMethod.DELETE, "/api/pools/nope/jobs/j", null))) {
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(body(response).getString("error")).isEqualTo("UNKNOWN_POOL");
        assertThat(body(response).getString("message")).contains("nope");
      }
    }
  }

  @Nested
  class Stopping {

    @Test
    void P16_undeploying_the_app_answers_waiting_callers_before_the_server_closes(Vertx vertx) {
      AppFixture app = AppFixture.start(vertx,
          demoPool("jobs", 1).put("drainTimeoutMs", 10_000));
      Future<HttpResponse<Buffer>> runningCall =
          app.send(HttpMethod.POST, JOBS, submitBody("running", sleep(2_000)).encode());
      awaitStatus(vertx, "jobs", running("w-0", "running"));
      Future<HttpResponse<Buffer>> queuedCall =
          app.send(HttpMethod.POST, JOBS, submitBody("queued", echo(1)).encode());
      awaitStatus(vertx, "jobs", s -> s.getJsonObject("backlog").getInteger("length") == 1);

      Future<Void> undeployed = vertx.undeploy(app.deployment);

      HttpResponse<Buffer> queued = join(queuedCall);
      assertThat(queued.statusCode()).isEqualTo(503);
      assertThat(body(queued).getJsonObject("reason").getString("kind")).isEqualTo("POOL_STOPPED");
      assertThat(body(queued).getJsonObject("payload")).isEqualTo(echo(1));
      HttpResponse<Buffer> completed = join(runningCall);
      assertThat(completed.statusCode()).isEqualTo(200);
      assertThat(body(completed).getString("type")).isEqualTo("completed");
      join(undeployed);
    }
  }
}
