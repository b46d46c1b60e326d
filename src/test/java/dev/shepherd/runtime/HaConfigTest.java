package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.ConfigException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code ha} block of a pool's configuration (A1): parsed on clustered nodes, refused with a
 * message naming the field when malformed or on a node that is not clustered.
 */
class HaConfigTest {

  private static JsonObject pool() {
    return new JsonObject().put("name", "jobs")
        .put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker"));
  }

  @Test
  void A1_an_enabled_ha_block_makes_a_durable_pool_on_a_clustered_node() {
    PoolConfig config = PoolConfig.parse(pool().put("ha", new JsonObject().put("enabled", true)),
        "pools[0]", true);
    assertThat(config.ha()).isTrue();
    assertThat(config.settings().durable()).isTrue();
  }

  @Test
  void A1_without_an_ha_block_or_with_enabled_false_a_pool_is_neither_ha_nor_durable() {
    for (JsonObject json : new JsonObject[] {pool(),
        pool().put("ha", new JsonObject()),
        pool().put("ha", new JsonObject().put("enabled", false))}) {
      PoolConfig config = PoolConfig.parse(json, "", true);
      assertThat(config.ha()).isFalse();
      assertThat(config.settings().durable()).isFalse();
    }
    assertThat(PoolConfig.parse(pool().put("ha", new JsonObject().put("enabled", false)), "",
        false).ha()).isFalse();
  }

  @Test
  void A1_ha_on_a_node_that_is_not_clustered_is_refused_naming_the_field() {
    assertThatThrownBy(() -> PoolConfig.parse(
        pool().put("ha", new JsonObject().put("enabled", true)), "pools[1]", false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("pools[1].ha.enabled")
        .hasMessageContaining("clustered");
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("yes", "ha"),
        Arguments.of(true, "ha"),
        Arguments.of(new JsonArray().add(true), "ha"),
        Arguments.of(new JsonObject().put("enabled", "true"), "ha.enabled"),
        Arguments.of(new JsonObject().put("enabled", 1), "ha.enabled"),
        Arguments.of(new JsonObject().put("enabled", new JsonObject()), "ha.enabled"),
        Arguments.of(new JsonObject().put("enable", true), "ha.enable"),
        Arguments.of(new JsonObject().put("enabled", true).put("members", 3), "ha.members"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void A1_a_malformed_ha_block_is_refused_naming_the_field(Object value, String field) {
    assertThatThrownBy(() -> PoolConfig.parse(pool().put("ha", value), "pools[0]", true))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("pools[0]." + field);
  }
}
