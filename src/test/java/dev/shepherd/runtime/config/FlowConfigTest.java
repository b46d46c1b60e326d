package dev.shepherd.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.ConfigException;
import dev.shepherd.core.FlowSettings;
import dev.shepherd.core.GroupDefaults;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.RateLimit;
import dev.shepherd.runtime.PoolConfig;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * A pool entry's flow-control fields (section 11, F1-F5 in docs/rules.md) as {@link FlowConfig}
 * reads them into the core's {@link FlowSettings}: off when absent, every field read, and each
 * malformed value a {@link ConfigException} naming its full path.
 */
class FlowConfigTest {

  private static JsonObject pool(String flowFields) {
    JsonObject pool = new JsonObject("{" + flowFields + "}");
    return pool.put("worker", new JsonObject().put("class", "dev.shepherd.demo.DemoWorker"));
  }

  private static FlowSettings flow(String flowFields) {
    return PoolConfig.parse(pool(flowFields), "pools[0]").settings().flow();
  }

  @Test
  void F1_a_pool_without_flow_fields_has_no_flow_control() {
    assertThat(flow("")).isEqualTo(FlowSettings.NONE);
  }

  @Test
  void F1_F4_every_field_is_read() {
    FlowSettings f = flow("\"groups\": {\"concurrency\": 4, \"queueCapacity\": 500, \"weight\": 2,"
        + " \"rateLimit\": {\"permits\": 10}, \"busiest\": 5,"
        + " \"overrides\": {\"big\": {\"concurrency\": 16, \"weight\": 4},"
        + " \"mail\": {\"rateLimit\": {\"permits\": 5, \"perMs\": 2000}, \"paused\": true}}},"
        + " \"rateLimit\": {\"permits\": 200, \"perMs\": 1000}, \"priorityAgingMs\": 30000,"
        + " \"rejectWhenPaused\": true");
    assertThat(f.defaults()).isEqualTo(new GroupDefaults(4, 500, 2, new RateLimit(10, 1000)));
    assertThat(f.busiest()).isEqualTo(5);
    assertThat(f.groups()).isEqualTo(Map.of(
        "big", new GroupSettings(16, null, 4, null, null),
        "mail", new GroupSettings(null, null, null, new RateLimit(5, 2000), true)));
    assertThat(f.poolRateLimit()).isEqualTo(new RateLimit(200, 1000));
    assertThat(f.priorityAgingMs()).isEqualTo(30_000);
    assertThat(f.rejectWhenPaused()).isTrue();
  }

  @Test
  void F4_permits_0_is_no_rate_limit() {
    assertThat(flow("\"rateLimit\": {\"permits\": 0}").poolRateLimit()).isNull();
    assertThat(flow("\"groups\": {\"rateLimit\": {\"perMs\": 500}}").defaults().rateLimit())
        .isNull();
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("\"groups\": 3", "pools[0].groups"),
        Arguments.of("\"groups\": {\"concurency\": 3}", "pools[0].groups.concurency"),
        Arguments.of("\"groups\": {\"concurrency\": -1}", "pools[0].groups.concurrency"),
        Arguments.of("\"groups\": {\"concurrency\": 1.5}", "pools[0].groups.concurrency"),
        Arguments.of("\"groups\": {\"concurrency\": \"4\"}", "pools[0].groups.concurrency"),
        Arguments.of("\"groups\": {\"queueCapacity\": -1}", "pools[0].groups.queueCapacity"),
        Arguments.of("\"groups\": {\"weight\": 0}", "pools[0].groups.weight"),
        Arguments.of("\"groups\": {\"weight\": 1001}", "pools[0].groups.weight"),
        Arguments.of("\"groups\": {\"busiest\": -1}", "pools[0].groups.busiest"),
        Arguments.of("\"groups\": {\"rateLimit\": []}", "pools[0].groups.rateLimit"),
        Arguments.of("\"groups\": {\"rateLimit\": {\"permits\": -1}}",
            "pools[0].groups.rateLimit.permits"),
        Arguments.of("\"groups\": {\"rateLimit\": {\"permits\": 1, \"perMs\": 0}}",
            "pools[0].groups.rateLimit.perMs"),
        Arguments.of("\"groups\": {\"overrides\": []}", "pools[0].groups.overrides"),
        Arguments.of("\"groups\": {\"overrides\": {\"a\": 1}}", "pools[0].groups.overrides.a"),
        Arguments.of("\"groups\": {\"overrides\": {\"\": {}}}", "pools[0].groups.overrides."),
        Arguments.of("\"groups\": {\"overrides\": {\"" + "g".repeat(257) + "\": {}}}",
            "pools[0].groups.overrides." + "g".repeat(257)),
        Arguments.of("\"groups\": {\"overrides\": {\"a\": {\"limit\": 1}}}",
            "pools[0].groups.overrides.a.limit"),
        Arguments.of("\"groups\": {\"overrides\": {\"a\": {\"concurrency\": -2}}}",
            "pools[0].groups.overrides.a.concurrency"),
        Arguments.of("\"groups\": {\"overrides\": {\"a\": {\"weight\": 0}}}",
            "pools[0].groups.overrides.a.weight"),
        Arguments.of("\"groups\": {\"overrides\": {\"a\": {\"paused\": \"yes\"}}}",
            "pools[0].groups.overrides.a.paused"),
        Arguments.of("\"groups\": {\"overrides\": {\"a\": {\"rateLimit\": {\"permits\": 2000000}}}}",
            "pools[0].groups.overrides.a.rateLimit.permits"),
        Arguments.of("\"rateLimit\": 5", "pools[0].rateLimit"),
        Arguments.of("\"rateLimit\": {\"permits\": 5, \"per\": 1}", "pools[0].rateLimit.per"),
        Arguments.of("\"rateLimit\": {\"permits\": 5, \"perMs\": 86400001}",
            "pools[0].rateLimit.perMs"),
        Arguments.of("\"priorityAgingMs\": -1", "pools[0].priorityAgingMs"),
        Arguments.of("\"priorityAgingMs\": \"1s\"", "pools[0].priorityAgingMs"),
        Arguments.of("\"rejectWhenPaused\": 1", "pools[0].rejectWhenPaused"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void a_bad_flow_field_is_refused_naming_its_full_path(String fields, String path) {
    assertThatThrownBy(() -> flow(fields))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.field()).isEqualTo(path));
  }
}
