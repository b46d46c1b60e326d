package dev.shepherd.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import com.hazelcast.config.ConfigXmlGenerator;
import com.hazelcast.config.InMemoryXmlConfig;
import com.hazelcast.config.JoinConfig;
import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.core.ConfigException;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Hazelcast configuration of {@code -cluster} (8.1): loopback by default, members, address,
 * name and port from the environment, never multicast, tuned failure detection, and nothing at
 * the root of the classpath that would change another application's clustering.
 */
class ClusterConfigTest {

  @Test
  void without_environment_members_join_over_loopback_tcp_and_never_by_multicast() {
    Config config = ClusterSetup.hazelcastConfig(ClusterSettings.defaults());
    JoinConfig join = config.getNetworkConfig().getJoin();

    assertThat(config.getClusterName()).isEqualTo("shepherd");
    assertNeverMulticasts(config);
    assertThat(join.getTcpIpConfig().getMembers()).containsExactly("127.0.0.1:5701",
        "127.0.0.1:5702", "127.0.0.1:5703", "127.0.0.1:5704", "127.0.0.1:5705");
    assertThat(config.getNetworkConfig().getPort()).isEqualTo(5701);
    assertThat(config.getNetworkConfig().getPortCount()).isEqualTo(ClusterSettings.PORT_COUNT);
    assertThat(config.getNetworkConfig().getInterfaces().isEnabled()).isTrue();
    assertThat(config.getNetworkConfig().getInterfaces().getInterfaces())
        .containsExactly("127.0.0.1");
  }

  @Test
  void the_majority_of_the_store_comes_from_the_environment_and_defaults_to_two_of_three() {
    Config defaults = ClusterSetup.hazelcastConfig(ClusterSettings.defaults());
    Config five = ClusterSetup.hazelcastConfig(ClusterSettings.fromEnvironment(
        Map.of(ClusterSettings.MAJORITY, "3")));

    assertThat(defaults.getSplitBrainProtectionConfigs().get("shepherd-majority")
        .getMinimumClusterSize()).isEqualTo(2);
    assertThat(five.getSplitBrainProtectionConfigs().get("shepherd-majority")
        .getMinimumClusterSize()).isEqualTo(3);
    assertThat(five.getMapConfig("shepherd.ha").getSplitBrainProtectionName())
        .isEqualTo("shepherd-majority");
  }

  @Test
  void A1_a_majority_of_one_turns_the_protection_off_for_a_cluster_of_one() {
    Config one = ClusterSetup.hazelcastConfig(ClusterSettings.fromEnvironment(
        Map.of(ClusterSettings.MAJORITY, "1")));

    assertThat(one.getSplitBrainProtectionConfigs().get("shepherd-majority").isEnabled())
        .isFalse();
    assertThat(ClusterSetup.hazelcastConfig(ClusterSettings.defaults())
        .getSplitBrainProtectionConfigs().get("shepherd-majority").isEnabled()).isTrue();
  }

  @Test
  void members_address_name_and_port_come_from_the_environment() {
    ClusterSettings settings = ClusterSettings.fromEnvironment(Map.of(
        ClusterSettings.MEMBERS, " 10.1.0.7 , node-b:6100,10.1.0.9:6200 ",
        ClusterSettings.HOST, "127.0.0.1",
        ClusterSettings.NAME, "blue-team",
        ClusterSettings.PORT, "7100"));

    Config config = ClusterSetup.hazelcastConfig(settings);

    assertThat(config.getClusterName()).isEqualTo("blue-team");
    assertThat(config.getNetworkConfig().getPort()).isEqualTo(7100);
    assertThat(config.getNetworkConfig().isPortAutoIncrement()).isTrue();
    assertThat(config.getNetworkConfig().getJoin().getTcpIpConfig().getMembers())
        .containsExactly("10.1.0.7:7100", "10.1.0.7:7101", "10.1.0.7:7102", "10.1.0.7:7103",
            "10.1.0.7:7104", "node-b:6100", "10.1.0.9:6200")
        .noneMatch(member -> member.contains("-7") || member.matches(".*:\\d+-\\d+"));
    assertNeverMulticasts(config);
  }

  @Test
  void a_host_name_binds_the_address_it_resolves_to() {
    ClusterSettings settings =
        ClusterSettings.fromEnvironment(Map.of(ClusterSettings.HOST, "localhost"));

    Config config = ClusterSetup.hazelcastConfig(settings);

    assertThat(config.getNetworkConfig().getInterfaces().getInterfaces())
        .containsExactly("127.0.0.1");
  }

  @Test
  void failure_detection_is_tuned_and_nothing_phones_home() {
    Config config = ClusterSetup.hazelcastConfig(ClusterSettings.defaults());

    assertThat(config.getProperty("hazelcast.heartbeat.interval.seconds")).isEqualTo("1");
    assertThat(config.getProperty("hazelcast.max.no.heartbeat.seconds")).isEqualTo("5");
    assertThat(config.getProperty("hazelcast.wait.seconds.before.join")).isEqualTo("1");
    assertThat(config.getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
    assertThat(config.getProperty("hazelcast.socket.bind.any")).isEqualTo("false");
    assertThat(config.getProperty("hazelcast.event.thread.count")).isEqualTo("16");
  }

  @Test
  void vertx_structures_keep_their_backups() {
    Config config = ClusterSetup.hazelcastConfig(ClusterSettings.defaults());

    assertThat(config.getMapConfig("__vertx.haInfo").getBackupCount()).isEqualTo(1);
  }

  /**
   * The consumer list and the nodes' addresses keep one backup, written without waiting for it:
   * a put whose backup went to a member that had just died waited 5 s for its acknowledgement, and
   * every lookup of consumers on its node behind it (docs/benchmarks.md, failover). What a dead
   * primary took with it, each member publishes again once the member has left.
   */
  @Test
  void vertx_consumers_and_node_addresses_keep_one_backup_not_waited_for() {
    Config config = ClusterSetup.hazelcastConfig(ClusterSettings.defaults());

    assertThat(config.getMultiMapConfig("__vertx.subs").getBackupCount()).isZero();
    assertThat(config.getMultiMapConfig("__vertx.subs").getAsyncBackupCount()).isEqualTo(1);
    assertThat(config.getMapConfig("__vertx.nodeInfo").getBackupCount()).isZero();
    assertThat(config.getMapConfig("__vertx.nodeInfo").getAsyncBackupCount()).isEqualTo(1);
  }

  @Test
  void the_jar_puts_no_cluster_xml_at_the_root_of_the_classpath() {
    ClassLoader loader = getClass().getClassLoader();

    assertThat(loader.getResource("cluster.xml")).isNull();
    assertThat(loader.getResource("hazelcast.xml")).isNull();
    assertThat(loader.getResource(ClusterSetup.CONFIG_RESOURCE)).isNotNull();
  }

  @Test
  void the_replacement_property_hands_the_whole_configuration_to_vertx_hazelcast() {
    String before = System.getProperty(ClusterSetup.REPLACEMENT_PROPERTY);
    System.setProperty(ClusterSetup.REPLACEMENT_PROPERTY, "/etc/shepherd/hazelcast.xml");
    try {
      HazelcastClusterManager manager =
          (HazelcastClusterManager) ClusterSetup.clusterManager(ClusterSettings.defaults());
      assertThat(manager.getConfig()).as("loaded from the property when joining").isNull();
    } finally {
      if (before == null) {
        System.clearProperty(ClusterSetup.REPLACEMENT_PROPERTY);
      } else {
        System.setProperty(ClusterSetup.REPLACEMENT_PROPERTY, before);
      }
    }
    HazelcastClusterManager manager =
        (HazelcastClusterManager) ClusterSetup.clusterManager(ClusterSettings.defaults());
    assertThat(manager.getConfig().getClusterName()).isEqualTo("shepherd");
  }

  static Stream<Arguments> invalidEnvironments() {
    return Stream.of(
        Arguments.of(ClusterSettings.NAME, "two words"),
        Arguments.of(ClusterSettings.NAME, "x".repeat(65)),
        Arguments.of(ClusterSettings.HOST, "10.0.0.1:5701"),
        Arguments.of(ClusterSettings.HOST, "no such host!"),
        Arguments.of(ClusterSettings.MAJORITY, "0"),
        Arguments.of(ClusterSettings.MAJORITY, "two"),
        Arguments.of(ClusterSettings.MAJORITY, "1001"),
        Arguments.of(ClusterSettings.MAJORITY, "-2"),
        Arguments.of(ClusterSettings.PORT, "http"),
        Arguments.of(ClusterSettings.PORT, "0"),
        Arguments.of(ClusterSettings.PORT, "65535"),
        Arguments.of(ClusterSettings.PORT, "-5701"),
        Arguments.of(ClusterSettings.MEMBERS, "127.0.0.1:5701-5710"),
        Arguments.of(ClusterSettings.MEMBERS, "127.0.0.1,,127.0.0.2"),
        Arguments.of(ClusterSettings.MEMBERS, "127.0.0.1:"),
        Arguments.of(ClusterSettings.MEMBERS, "127.0.0.1:99999"),
        Arguments.of(ClusterSettings.MEMBERS, "[::1]:5701"),
        Arguments.of(ClusterSettings.MEMBERS, "a b"));
  }

  @ParameterizedTest(name = "{0}={1}")
  @MethodSource("invalidEnvironments")
  void a_bad_variable_is_refused_naming_it_and_its_value(String variable, String value) {
    assertThatThrownBy(() -> ClusterSettings.fromEnvironment(Map.of(variable, value)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(variable + ": ")
        .hasMessageContaining(value);
  }

  @Test
  void a_host_that_does_not_resolve_is_refused_naming_the_variable() {
    ClusterSettings settings = ClusterSettings.fromEnvironment(
        Map.of(ClusterSettings.HOST, "no-such-host.invalid"));

    assertThatThrownBy(() -> ClusterSetup.hazelcastConfig(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(ClusterSettings.HOST + ": ")
        .hasMessageContaining("no-such-host.invalid");
  }

  /** Checked on the object and on the XML Hazelcast would write out and read back. */
  private static void assertNeverMulticasts(Config config) {
    for (Config c : new Config[] {config, reparsed(config)}) {
      JoinConfig join = c.getNetworkConfig().getJoin();
      assertThat(join.getMulticastConfig().isEnabled()).isFalse();
      assertThat(join.getAutoDetectionConfig().isEnabled()).isFalse();
      assertThat(join.getTcpIpConfig().isEnabled()).isTrue();
      assertThat(join.getTcpIpConfig().getMembers()).isNotEmpty();
      assertThat(c.getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
    }
  }

  private static Config reparsed(Config config) {
    return new InMemoryXmlConfig(new ConfigXmlGenerator(false).generate(config));
  }
}
