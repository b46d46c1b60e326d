package dev.shepherd.cluster.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.cluster.ClusterPorts;
import dev.shepherd.cluster.ClusteredVertx;
import dev.shepherd.cluster.FakeHost;
import dev.shepherd.cluster.trust.ClusterKeys;
import dev.shepherd.runtime.PoolFixture;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.Refusals;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pool on a Vert.x with a cluster key (docs/security.md): a registration without the key's MAC,
 * or with another key's, is refused {@code 401 UNAUTHENTICATED_HOST} and the pool does not take
 * the host; one with it is answered with the pool's own MAC.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HostAuthenticationTest {
  private static final String POOL = "authn";
  private static Vertx vertx;
  private static Addresses addresses;
  private static ClusterKeys keys;

  private static ClusterKeys key(long seed) {
    byte[] bytes = new byte[32];
    new SplittableRandom(seed).nextBytes(bytes);
    return ClusterKeys.of(Base64.getEncoder().encodeToString(bytes), null);
  }

  @BeforeAll
  static void pool() {
    vertx = ClusteredVertx.start(ClusterPorts.uniqueName("authn"), ClusterPorts.freeBase());
    keys = key(1);
    ClusterKeys.install(vertx, keys);
    PoolFixture.deploy(vertx, PoolFixture.demoPool(POOL, 0));
    addresses = Addresses.forPool(POOL);
  }

  @AfterAll
  static void close() {
    ClusteredVertx.close(vertx);
  }

  private static JsonObject registration(String host) {
    return HostCodec.encode(new HostMessages.Register(host, ClusteredVertx.nodeId(vertx),
        addresses.prefix() + ".host." + host, List.of(new HostMessages.SlotOffer(host + "/w-0", 1)),
        100));
  }

  private static Object answer(JsonObject body, DeliveryOptions options) {
    try {
      return vertx.eventBus().request(addresses.register(), body, options.setSendTimeout(5_000))
          .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void a_host_without_the_key_or_with_another_is_refused_401_and_not_taken() {
    FakeHost plain = new FakeHost(vertx, addresses.prefix(), "plain",
        ClusteredVertx.nodeId(vertx));
    ReplyException unsigned = plain.refusedRegistration(1, 1);
    JsonObject body = registration("other");
    Object otherKey = answer(body, HostMac.of(key(2)).sign(HostMac.REGISTER, 0, body));
    JsonObject moved = registration("moved");
    Object wrongKind = answer(moved, HostMac.of(keys).sign(HostMac.HEARTBEAT, 0, moved));

    for (Object refusal : List.of(unsigned, otherKey, wrongKind)) {
      assertThat(refusal).isInstanceOf(ReplyException.class);
      ReplyException failure = (ReplyException) refusal;
      assertThat(failure.failureCode()).isEqualTo(HostMac.UNAUTHENTICATED_CODE);
      assertThat(Refusals.parse(failure).name()).isEqualTo(HostMac.UNAUTHENTICATED);
    }
    assertThat(PoolFixture.status(vertx, POOL).toString()).doesNotContain("plain/w-0")
        .doesNotContain("other/w-0").doesNotContain("moved/w-0");
  }

  @Test
  @SuppressWarnings("unchecked")
  void a_host_with_the_key_is_taken_and_the_answer_carries_the_pool_mac() {
    JsonObject body = registration("good");
    HostMac mac = HostMac.of(keys);

    Object reply = answer(body, mac.sign(HostMac.REGISTER, 0, body));

    assertThat(reply).isInstanceOf(Message.class);
    Message<Object> message = (Message<Object>) reply;
    assertThat(mac.verify(HostMac.REGISTERED, message)).isTrue();
    assertThat(HostMac.of(key(2)).verify(HostMac.REGISTERED, message)).isFalse();
    assertThat(HostCodec.decodeRegistered(message.body()).host()).isEqualTo("good");
  }
}
