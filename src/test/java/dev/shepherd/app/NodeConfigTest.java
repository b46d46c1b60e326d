package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.cluster.hosts.HostConfig;
import dev.shepherd.core.ConfigException;
import dev.shepherd.demo.DemoWorker;
import dev.shepherd.runtime.OnException;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A node's configuration (8.1, H1): any of {@code pools}, {@code hosts} and {@code http}; a
 * {@code hosts} entry validated field by field, each error naming the field ({@code
 * hosts[0].id}); {@code hosts} only on a clustered node.
 */
class NodeConfigTest {
  private static final String DEMO = DemoWorker.class.getName();

  private static JsonObject hostEntry() {
    return new JsonObject().put("pool", "jobs").put("id", "h1")
        .put("worker", new JsonObject().put("class", DEMO).put("instances", 2));
  }

  private static JsonObject node(JsonObject... hosts) {
    return new JsonObject().put("hosts",
        new JsonArray(new java.util.ArrayList<>(java.util.List.of((Object[]) hosts))));
  }

  @Test
  void H1_a_node_with_hosts_and_no_pools_coordinates_nothing_and_runs_slots_for_the_pool() {
    AppConfig config = AppConfig.parse(node(hostEntry()), true);

    assertThat(config.pools()).isEmpty();
    assertThat(config.hosts()).singleElement().satisfies(host -> {
      assertThat(host.path()).isEqualTo("hosts[0]");
      assertThat(host.pool()).isEqualTo("jobs");
      assertThat(host.id()).isEqualTo("h1");
      assertThat(host.slotIds()).containsExactly("h1/w-0", "h1/w-1");
      assertThat(host.heartbeatMs()).isEqualTo(1000);
      assertThat(host.address()).isEqualTo("shepherd.jobs");
      assertThat(host.hostAddress()).isEqualTo("shepherd.jobs.host.h1");
      assertThat(host.worker().type()).isEqualTo(DemoWorker.class);
      assertThat(host.worker().maxConcurrency()).isEqualTo(1);
      assertThat(host.worker().threading()).isEqualTo(ThreadingModel.WORKER);
      assertThat(host.worker().onException()).isEqualTo(OnException.FAIL_JOB);
    });
  }

  @Test
  void J1_a_hosts_worker_reads_onException_as_a_pools_worker_does() {
    JsonObject entry = hostEntry();
    entry.getJsonObject("worker").put("onException", "CRASH");

    HostConfig host = AppConfig.parse(node(entry), true).hosts().get(0);

    assertThat(host.worker().onException()).isEqualTo(OnException.CRASH);
  }

  @Test
  void H1_the_id_defaults_to_the_machines_host_name_and_the_address_to_the_pools_prefix() {
    JsonObject entry = hostEntry();
    entry.remove("id");
    entry.put("pool", "images").put("heartbeatMs", 250);

    HostConfig host = AppConfig.parse(node(entry), true).hosts().get(0);

    assertThat(host.id()).isEqualTo(HostConfig.machineName());
    assertThat(host.address()).isEqualTo("shepherd.images");
    assertThat(host.heartbeatMs()).isEqualTo(250);
  }

  @Test
  void one_host_id_may_serve_several_pools() {
    AppConfig config = AppConfig.parse(node(hostEntry(), hostEntry().put("pool", "other")), true);

    assertThat(config.hosts()).extracting(HostConfig::hostAddress)
        .containsExactly("shepherd.jobs.host.h1", "shepherd.other.host.h1");
  }

  @Test
  void a_node_may_serve_no_http() {
    JsonObject json = node(hostEntry()).put("http", new JsonObject().put("enabled", false));

    assertThat(AppConfig.parse(json, true).http().enabled()).isFalse();
    assertThat(AppConfig.parse(new JsonObject().put("pools", new JsonArray()), false).http()
        .enabled()).isTrue();
  }

  @Test
  void hosts_need_a_cluster() {
    assertThatThrownBy(() -> AppConfig.parse(node(hostEntry()), false))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("hosts: ").hasMessageContaining("-cluster");
  }

  @Test
  void a_node_with_neither_pools_nor_hosts_is_refused_naming_pools() {
    assertThatThrownBy(() -> AppConfig.parse(new JsonObject().put("hosts", new JsonArray()),
        true)).isInstanceOf(ConfigException.class).hasMessageStartingWith("pools: ");
  }

  @Test
  void H2_a_clustered_pool_may_have_no_local_slots_and_run_on_hosts_alone() {
    JsonObject pool = new JsonObject().put("worker", new JsonObject().put("class", DEMO)
        .put("instances", 0));
    JsonObject node = new JsonObject().put("pools", new JsonArray().add(pool));

    AppConfig clustered = AppConfig.parse(node, true);
    assertThat(clustered.pools().get(0).settings().slots()).isEmpty();
    assertThat(clustered.pools().get(0).settings().hosts().hostsOnly()).isTrue();
    assertThatThrownBy(() -> AppConfig.parse(node, false))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("pools[0].worker.instances: ");
  }

  private static Arguments bad(String field, Consumer<JsonObject> edit) {
    return Arguments.of(field, edit);
  }

  private static JsonObject first(JsonObject node) {
    return node.getJsonArray("hosts").getJsonObject(0);
  }

  private static JsonObject worker(JsonObject node) {
    return first(node).getJsonObject("worker");
  }

  static Stream<Arguments> malformedNodes() {
    return Stream.of(
        bad("hosts", n -> n.put("hosts", new JsonObject())),
        bad("hosts", n -> n.put("hosts", "h1")),
        bad("hosts[0]", n -> n.getJsonArray("hosts").set(0, "h1")),
        bad("hosts[0].pool", n -> first(n).remove("pool")),
        bad("hosts[0].pool", n -> first(n).put("pool", 7)),
        bad("hosts[0].pool", n -> first(n).put("pool", "two words")),
        bad("hosts[0].pool", n -> first(n).put("pool", "")),
        bad("hosts[0].id", n -> first(n).put("id", "")),
        bad("hosts[0].id", n -> first(n).put("id", "h/1")),
        bad("hosts[0].id", n -> first(n).put("id", "x".repeat(65))),
        bad("hosts[0].id", n -> first(n).put("id", 12)),
        bad("hosts[0].worker", n -> first(n).put("worker", DEMO)),
        bad("hosts[0].worker.class", n -> worker(n).remove("class")),
        bad("hosts[0].worker.class", n -> worker(n).put("class", "com.example.Nope")),
        bad("hosts[0].worker.class", n -> worker(n).put("class", "java.lang.String")),
        bad("hosts[0].worker.instances", n -> worker(n).put("instances", 0)),
        bad("hosts[0].worker.instances", n -> worker(n).put("instances", "two")),
        bad("hosts[0].worker.maxConcurrency", n -> worker(n).put("maxConcurrency", 0)),
        bad("hosts[0].worker.threading", n -> worker(n).put("threading", "FAST")),
        bad("hosts[0].worker.config", n -> worker(n).put("config", "failStart=always")),
        bad("hosts[0].worker.instance", n -> worker(n).put("instance", 2)),
        bad("hosts[0].worker.onException", n -> worker(n).put("onException", "RESTART")),
        bad("hosts[0].worker.onException", n -> worker(n).put("onException", 0)),
        bad("hosts[0].heartbeatMs", n -> first(n).put("heartbeatMs", 0)),
        bad("hosts[0].heartbeatMs", n -> first(n).put("heartbeatMs", 10)),
        bad("hosts[0].heartbeatMs", n -> first(n).put("heartbeatMs", "1s")),
        bad("hosts[0].heartbeatMs", n -> first(n).put("heartbeatMs", 1.5)),
        bad("hosts[0].address", n -> first(n).put("address", 7)),
        bad("hosts[0].address", n -> first(n).put("address", " ")),
        bad("hosts[0].host", n -> first(n).put("host", "h1")),
        bad("hosts[1].id", n -> n.getJsonArray("hosts").add(hostEntry())),
        bad("hosts[1].worker.class", n -> n.getJsonArray("hosts").add(hostEntry().put("id", "h2")
            .put("worker", new JsonObject()))),
        bad("http.enabled", n -> n.put("http", new JsonObject().put("enabled", "no"))),
        bad("host", n -> n.put("host", new JsonArray())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedNodes")
  void a_malformed_entry_is_refused_naming_the_field(String field, Consumer<JsonObject> edit) {
    JsonObject json = node(hostEntry());
    edit.accept(json);

    assertThatThrownBy(() -> AppConfig.parse(json, true))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(field + ": ")
        .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo(field));
  }
}
