package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.impl.codecs.JsonObjectMessageCodec;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link OwnedJsonCodec}: a reply in this JVM hands its own JSON over without copying it again,
 * but the receiver shares nothing the sender may still hold (a result the pool also remembers
 * stays as the worker returned it, whatever the receiver does); on the wire it is Vert.x's JSON.
 */
class OwnedJsonCodecTest {
  private static Vertx vertx;
  private static DeliveryOptions owned;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    owned = OwnedJsonCodec.registerOn(vertx.eventBus());
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  void a_local_reply_is_the_answer_built_and_what_it_holds_is_the_receivers_own() {
    JsonObject result = new JsonObject().put("n", 1).put("list", new JsonArray().add("a"));
    JsonObject answer = new JsonObject().put("type", "completed").put("result", result)
        .put("attempts", 1).put("map", Map.of("k", "v")).put("items", List.of(1, 2));
    vertx.eventBus().<JsonObject>consumer("owned.test", m -> m.reply(answer, owned))
        .completion().await();

    JsonObject got = vertx.eventBus().<JsonObject>request("owned.test", "?").await().body();

    assertThat(got).isSameAs(answer);
    assertThat(got.getJsonObject("result")).isEqualTo(result).isNotSameAs(result);
    assertThat(got.getValue("map")).isEqualTo(new JsonObject().put("k", "v"));
    assertThat(got.getValue("items")).isEqualTo(new JsonArray().add(1).add(2));
    got.getJsonObject("result").put("n", 2);
    got.getJsonObject("result").getJsonArray("list").add("b");
    assertThat(result).isEqualTo(new JsonObject().put("n", 1).put("list", new JsonArray().add("a")));
  }

  @Test
  void on_the_wire_it_writes_and_reads_what_vertx_json_codec_does() {
    JsonObject answer = new JsonObject().put("type", "failed").put("error",
        new JsonObject().put("message", "ünïcode \"quoted\"")).put("attempts", 3);
    Buffer ours = Buffer.buffer().appendString("head");
    Buffer theirs = Buffer.buffer().appendString("head");
    OwnedJsonCodec codec = OwnedJsonCodec.INSTANCE;

    codec.encodeToWire(ours, answer);
    new JsonObjectMessageCodec().encodeToWire(theirs, answer);

    assertThat(ours).isEqualTo(theirs);
    assertThat(codec.decodeFromWire(4, ours)).isEqualTo(answer);
  }

  @Test
  void a_second_pool_on_the_same_bus_finds_the_codec_registered() {
    DeliveryOptions again = OwnedJsonCodec.registerOn(vertx.eventBus());

    assertThat(again.getCodecName()).isEqualTo(OwnedJsonCodec.NAME);
    vertx.eventBus().<JsonObject>consumer("owned.test.again",
        m -> m.reply(new JsonObject().put("ok", true), again)).completion().await();
    Message<JsonObject> reply = vertx.eventBus().<JsonObject>request("owned.test.again", "?")
        .await();
    assertThat(reply.body()).isEqualTo(new JsonObject().put("ok", true));
  }
}
