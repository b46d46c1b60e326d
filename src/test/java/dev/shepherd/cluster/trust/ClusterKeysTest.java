package dev.shepherd.cluster.trust;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.ConfigException;
import io.vertx.core.Vertx;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The cluster key from the environment (docs/security.md): base64 of exactly 32 bytes, with an
 * optional previous key for reading; anything else fails naming the variable, never the key.
 */
class ClusterKeysTest {
  static String key(long seed) {
    byte[] bytes = new byte[ClusterKeys.KEY_BYTES];
    new SplittableRandom(seed).nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static ConfigException refused(Map<String, String> env) {
    try {
      ClusterKeys.fromEnvironment(env);
    } catch (ConfigException e) {
      for (String value : env.values()) {
        if (value.trim().length() > 3) {
          assertThat(e.getMessage()).as("never the key").doesNotContain(value.trim());
        }
      }
      return e;
    }
    throw new AssertionError("accepted " + env);
  }

  @Test
  void no_key_is_none() {
    assertThat(ClusterKeys.fromEnvironment(Map.of()).present()).isFalse();
    assertThat(ClusterKeys.fromEnvironment(Map.of(ClusterKeys.KEY, "  ")).present()).isFalse();
    assertThat(ClusterKeys.NONE.sealing()).isEmpty();
    assertThat(ClusterKeys.NONE.authenticating()).isEmpty();
  }

  @Test
  void a_key_derives_one_sealing_and_one_authenticating_key_that_differ() {
    ClusterKeys keys = ClusterKeys.fromEnvironment(Map.of(ClusterKeys.KEY, key(1)));

    assertThat(keys.present()).isTrue();
    assertThat(keys.sealing()).hasSize(1);
    assertThat(keys.sealing().get(0).getAlgorithm()).isEqualTo("AES");
    assertThat(keys.sealing().get(0).getEncoded()).hasSize(32)
        .isNotEqualTo(keys.authenticating().get(0).getEncoded())
        .isNotEqualTo(Base64.getDecoder().decode(key(1)));
    assertThat(keys.toString()).doesNotContain(key(1));
  }

  @Test
  void a_previous_key_comes_second_and_one_equal_to_the_current_is_dropped() {
    ClusterKeys rotated = ClusterKeys.fromEnvironment(Map.of(ClusterKeys.KEY, key(2),
        ClusterKeys.PREVIOUS, key(1)));
    ClusterKeys first = ClusterKeys.fromEnvironment(Map.of(ClusterKeys.KEY, key(1)));
    assertThat(rotated.sealing()).hasSize(2);
    assertThat(rotated.sealing().get(1).getEncoded())
        .isEqualTo(first.sealing().get(0).getEncoded());

    assertThat(ClusterKeys.fromEnvironment(Map.of(ClusterKeys.KEY, key(1),
        ClusterKeys.PREVIOUS, " " + key(1) + " ")).sealing()).hasSize(1);
  }

  @Test
  void malformed_keys_are_refused_naming_the_variable() {
    byte[] short16 = new byte[16];
    byte[] long33 = new byte[33];
    byte[] long64 = new byte[64];
    String[] malformed = {
        "not base64!", "%%%%", "====", "abc", "a", key(3).substring(1), key(3) + "A",
        key(3).replace('+', '-').replace('/', '_') + "-_-_", "ÄÖÜ" + key(3),
        Base64.getEncoder().encodeToString(short16),
        Base64.getEncoder().encodeToString(new byte[31]),
        Base64.getEncoder().encodeToString(long33),
        Base64.getEncoder().encodeToString(long64),
        "0123456789abcdef0123456789abcdef", // 32 characters of hex, not 32 bytes
        key(3).substring(0, 20) + " " + key(3).substring(20)};
    for (String bad : malformed) {
      assertThat(refused(Map.of(ClusterKeys.KEY, bad)).field()).as(bad)
          .isEqualTo(ClusterKeys.KEY);
      assertThat(refused(Map.of(ClusterKeys.KEY, key(4), ClusterKeys.PREVIOUS, bad)).field())
          .as("previous " + bad).isEqualTo(ClusterKeys.PREVIOUS);
    }
  }

  @Test
  void a_previous_key_alone_is_refused_naming_the_current_one() {
    assertThat(refused(Map.of(ClusterKeys.PREVIOUS, key(5))).field())
        .isEqualTo(ClusterKeys.KEY);
  }

  @Test
  void a_library_user_installs_keys_on_its_vertx_and_each_vertx_has_its_own() {
    Vertx one = Vertx.vertx();
    Vertx other = Vertx.vertx();
    try {
      ClusterKeys keys = ClusterKeys.of(key(6), null);
      assertThat(ClusterKeys.of(one)).isSameAs(ClusterKeys.NONE);

      ClusterKeys.install(one, keys);

      assertThat(ClusterKeys.of(one)).isSameAs(keys);
      assertThat(ClusterKeys.of(other)).isSameAs(ClusterKeys.NONE);
    } finally {
      one.close();
      other.close();
    }
    Map<String, String> names = new HashMap<>();
    try {
      ClusterKeys.of("short", null);
    } catch (ConfigException e) {
      names.put("key", e.field());
    }
    try {
      ClusterKeys.of(key(6), "short");
    } catch (ConfigException e) {
      names.put("previous", e.field());
    }
    assertThat(names).containsEntry("key", "key").containsEntry("previous", "previous");
  }
}
