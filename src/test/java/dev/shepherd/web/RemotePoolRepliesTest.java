package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.access.ReplyAddress;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An HTTP caller waiting on a node that does not coordinate the pool is answered at that node's
 * reply address (A4): by whichever coordinator holds the job by then, so the answer outlives a
 * failover of the one that admitted it. Stand-ins play the pools: one admits a job and lets a
 * "successor" answer it, one admits and never answers, one rejects.
 */
class RemotePoolRepliesTest {
  private static final long TIMEOUT_MS = 500;

  private Vertx vertx;
  private WebServer server;
  private ReplyAddress replies;
  private final List<JsonObject> submits = new CopyOnWriteArrayList<>();

  private final MapPoolDirectory directory = new MapPoolDirectory();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    for (String name : List.of("moving", "forgetful", "full")) {
      replies = new ReplyAddress(vertx, name, TIMEOUT_MS);
      directory.put(new BusPoolHandle(vertx, name, new Addresses("remote." + name), "node-x",
          TIMEOUT_MS, TIMEOUT_MS, replies));
    }
    var bus = vertx.eventBus();
    // The first coordinator admits; a successor answers the job at its replyTo a moment later.
    bus.consumer("remote.moving.submit", message -> {
      JsonObject body = json(message.body());
      submits.add(body);
      message.reply(new JsonObject().put("type", "accepted").put("job", body.getString("job")));
      String replyTo = body.getString("replyTo");
      if (!replyTo.endsWith(".discard")) {
        vertx.setTimer(50, id -> bus.send(replyTo, new JsonObject().put("type", "completed")
            .put("job", body.getString("job")).put("result", "from the successor")
            .put("worker", "w-1").put("attempts", 2)));
      }
    });
    bus.consumer("remote.forgetful.submit", message -> message.reply(
        new JsonObject().put("type", "accepted")
            .put("job", json(message.body()).getString("job"))));
    bus.consumer("remote.full.submit", message -> message.reply(new JsonObject()
        .put("type", "rejected").put("job", json(message.body()).getString("job"))
        .put("reason", "BACKLOG_FULL").put("payload", json(message.body()).getValue("payload"))
        .put("message", "the backlog is full")));
    server = new WebServer(vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null), directory);
    ClusteredWebNode.join(server.start(), 10);
  }

  /** A submit's body: HTTP's come as the JSON text they arrived as. */
  private static JsonObject json(Object body) {
    return body instanceof Buffer text ? text.toJsonObject() : (JsonObject) body;
  }

  @AfterEach
  void stop() {
    ClusteredWebNode.join(vertx.close(), 10);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  @Test
  void A4_an_http_caller_gets_the_outcome_a_successor_sends_to_the_nodes_reply_address() {
    Http.Response r = Http.post(url("/api/pools/moving/jobs"),
        "{\"job\":\"j1\",\"payload\":{\"echo\":1}}");

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().getString("type")).isEqualTo("completed");
    assertThat(r.json().getString("job")).isEqualTo("j1");
    assertThat(r.json().getString("result")).isEqualTo("from the successor");
    assertThat(submits).singleElement().satisfies(body ->
        assertThat(body.getString("replyTo")).startsWith("__shepherd.client."));
  }

  @Test
  void A4_a_job_without_an_id_gets_one_the_reply_address_can_match() {
    Http.Response r = Http.post(url("/api/pools/moving/jobs"), "{\"payload\":1}");

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().getString("job")).isNotBlank()
        .isEqualTo(submits.get(0).getString("job"));
  }

  @Test
  void a_caller_that_asks_only_for_the_admission_is_answered_by_the_first_coordinator() {
    Http.Response r = Http.post(url("/api/pools/moving/jobs?wait=false"),
        "{\"job\":\"j2\",\"payload\":1}");

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().getString("type")).isEqualTo("accepted");
    assertThat(submits.get(0).getString("replyTo")).endsWith(".discard");
  }

  @Test
  void an_outcome_that_never_comes_ends_in_a_gateway_timeout() {
    Http.Response r = Http.post(url("/api/pools/forgetful/jobs"), "{\"payload\":1}");

    assertThat(r.status()).as(r.body()).isEqualTo(504);
    assertThat(r.json().getString("error")).isEqualTo("POOL_TIMEOUT");
  }

  @Test
  void a_rejected_admission_is_answered_at_once_as_for_a_local_pool() {
    Http.Response r = Http.post(url("/api/pools/full/jobs"), "{\"payload\":{\"a\":1}}");

    assertThat(r.status()).as(r.body()).isEqualTo(429);
    assertThat(r.json().getString("reason")).isEqualTo("BACKLOG_FULL");
    assertThat(r.json().getJsonObject("payload")).isEqualTo(new JsonObject().put("a", 1));
  }
}
