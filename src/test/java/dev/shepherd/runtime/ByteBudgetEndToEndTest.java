package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.addresses;
import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.request;
import static dev.shepherd.runtime.PoolFixture.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Queued payloads count against {@code backlogMaxBytes} whichever way they come in (P3): as their
 * bytes when they arrive as text (a bus message holding JSON text, like an HTTP body), as the
 * estimated heap of their tree when they arrive decoded (a bus JsonObject, the in-JVM client).
 * Over the budget a job that must queue is {@code rejected(BACKLOG_FULL)} with its payload back.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ByteBudgetEndToEndTest {
  private static final long BUDGET = 100_000;

  private static JsonArray empties(int n) {
    JsonArray array = new JsonArray();
    for (int i = 0; i < n; i++) {
      array.add(new JsonObject());
    }
    return array;
  }

  private static void busy(Vertx vertx) {
    deployReady(vertx, demoPool("bytes", 1).put("backlogMaxBytes", BUDGET));
    PoolClient.create(vertx, "bytes").submit(sleep(3_000));
    awaitStatus(vertx, "bytes", s -> PoolFixture.slot(s, "w-0").getInteger("inFlight") == 1);
  }

  @Test
  void P3_payloads_sent_as_text_count_their_bytes(Vertx vertx) {
    busy(vertx);
    String body = new JsonObject().put("job", "t1").put("payload", "x".repeat(60_000))
        .put("replyTo", "nowhere").encode();

    JsonObject first = request(vertx, addresses("bytes").submit(),
        Buffer.buffer(body).appendString(" "));
    JsonObject second = request(vertx, addresses("bytes").submit(), body.replace("t1", "t2"));

    assertThat(first.getString("type")).isEqualTo("accepted");
    assertThat(second.getString("type")).isEqualTo("rejected");
    assertThat(second.getString("reason")).isEqualTo("BACKLOG_FULL");
    assertThat(second.getString("message")).contains("60002 payload bytes of 100000");
    assertThat(second.getString("payload")).hasSize(60_000);
  }

  @Test
  void P3_decoded_payloads_count_their_estimated_tree(Vertx vertx) {
    busy(vertx);
    // 1000 empty objects: 6 KB of JSON text, about 77 KB of heap once decoded.
    JsonObject body = new JsonObject().put("payload", empties(1000));

    JsonObject bus = request(vertx, addresses("bytes").submit(), body.copy().put("job", "b1")
        .put("replyTo", "nowhere"));
    Outcome client = join(PoolClient.create(vertx, "bytes").admit(JobRequest.of(empties(1000))
        .withJob("c1")));

    assertThat(bus.getString("type")).isEqualTo("accepted");
    assertThat(client).isInstanceOf(Outcome.Rejected.class);
    assertThat(((Outcome.Rejected) client).reason()).isEqualTo(RejectionReason.BACKLOG_FULL);
    assertThat(((Outcome.Rejected) client).message()).contains("payload bytes of 100000");
    JsonObject status = PoolFixture.status(vertx, "bytes");
    assertThat(counter(status, "accepted")).isEqualTo(2);
    assertThat(counter(status, "rejected")).isEqualTo(1);
  }
}
