package dev.shepherd.cluster.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.cluster.trust.ClusterKeys;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The worker-host protocol's MAC (docs/security.md, docs/protocol.md "Worker hosts"): it binds
 * the kind, the term and the body's bytes to the cluster key; without a key nothing is signed or
 * checked; a previous key still verifies.
 */
class HostMacTest {
  private static final Buffer BATCH = Buffer.buffer("{\"term\":3,\"items\":[{\"op\":\"assign\","
      + "\"payload\":{\"secret\":1}}]}");

  private static HostMac mac(long seed, Long previous) {
    return HostMac.of(ClusterKeys.fromEnvironment(previous == null
        ? Map.of(ClusterKeys.KEY, key(seed))
        : Map.of(ClusterKeys.KEY, key(seed), ClusterKeys.PREVIOUS, key(previous))));
  }

  private static String key(long seed) {
    byte[] bytes = new byte[32];
    new SplittableRandom(seed).nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static String header(HostMac mac, String kind, long term, Object body) {
    return mac.sign(kind, term, body).getHeaders() == null ? null
        : mac.sign(kind, term, body).getHeaders().get(HostMac.HEADER);
  }

  @Test
  void a_signed_message_verifies_with_the_same_key() {
    HostMac mac = mac(1, null);
    String header = header(mac, HostMac.COMMANDS, 3, BATCH);

    assertThat(header).startsWith("3.");
    assertThat(mac.verify(HostMac.COMMANDS, header, BATCH)).isTrue();
    assertThat(mac.verify(HostMac.COMMANDS, header, BATCH.copy())).isTrue();
  }

  @Test
  void a_json_object_body_verifies_after_the_bus_re_reads_it() {
    HostMac mac = mac(1, null);
    JsonObject register = new JsonObject().put("host", "h1").put("node", "n")
        .put("heartbeatMs", 500L).put("slots", new io.vertx.core.json.JsonArray()
            .add(new JsonObject().put("id", "h1/w-0").put("maxConcurrency", 2)));
    String header = header(mac, HostMac.REGISTER, 0, register);

    assertThat(mac.verify(HostMac.REGISTER, header, new JsonObject(register.toBuffer())))
        .isTrue();
  }

  @Test
  void another_kind_term_body_or_key_does_not_verify() {
    HostMac mac = mac(1, null);
    String header = header(mac, HostMac.COMMANDS, 3, BATCH);

    assertThat(mac.verify(HostMac.REPORTS, header, BATCH)).isFalse();
    assertThat(mac.verify(HostMac.COMMANDS, header.replaceFirst("^3\\.", "4."), BATCH))
        .isFalse();
    assertThat(mac.verify(HostMac.COMMANDS, header,
        Buffer.buffer(BATCH.toString().replace("\"term\":3", "\"term\":4")))).isFalse();
    assertThat(mac(2, null).verify(HostMac.COMMANDS, header, BATCH)).isFalse();
  }

  @Test
  void malformed_or_missing_headers_do_not_verify() {
    HostMac mac = mac(1, null);
    String good = header(mac, HostMac.COMMANDS, 3, BATCH);
    List<String> malformed = List.of("", ".", "3", "3.", ".abc", "x." + good.substring(2),
        "3.!!!!", "3." + good.substring(2, 20), good + "AA", "-3." + good.substring(2),
        "99999999999999999999." + good.substring(2), good.repeat(3), " " + good);
    assertThat(mac.verify(HostMac.COMMANDS, null, BATCH)).isFalse();
    for (String header : malformed) {
      assertThat(mac.verify(HostMac.COMMANDS, header, BATCH)).as(header).isFalse();
    }
    assertThat(mac.verify(HostMac.COMMANDS, good, 42)).as("a body of another type").isFalse();
    assertThat(mac.verify(HostMac.COMMANDS, good, null)).isFalse();
  }

  @Test
  void without_a_key_nothing_is_signed_and_everything_verifies() {
    DeliveryOptions options = HostMac.NONE.sign(HostMac.COMMANDS, 3, BATCH);

    assertThat(HostMac.NONE.on()).isFalse();
    assertThat(options.getHeaders() == null || options.getHeaders().isEmpty()).isTrue();
    assertThat(HostMac.NONE.verify(HostMac.COMMANDS, null, BATCH)).isTrue();
    assertThat(HostMac.of(ClusterKeys.NONE)).isSameAs(HostMac.NONE);
  }

  @Test
  void after_a_rotation_the_previous_key_still_verifies_and_the_new_one_signs() {
    String old = header(mac(1, null), HostMac.REPORTS, 2, BATCH);
    HostMac rotated = mac(2, 1L);

    assertThat(rotated.verify(HostMac.REPORTS, old, BATCH)).isTrue();
    String fresh = header(rotated, HostMac.REPORTS, 2, BATCH);
    assertThat(mac(2, null).verify(HostMac.REPORTS, fresh, BATCH)).isTrue();
    assertThat(mac(1, null).verify(HostMac.REPORTS, fresh, BATCH)).isFalse();
  }
}
