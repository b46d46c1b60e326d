package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import org.junit.jupiter.api.Test;

/** The cluster configuration `-cluster` picks up stays on this machine. */
class ClusterConfigTest {

  @Test
  void cluster_members_join_over_loopback_tcp_and_never_by_multicast() {
    Config config = ConfigUtil.loadConfig();
    JoinConfig join = config.getNetworkConfig().getJoin();

    assertThat(config.getClusterName()).isEqualTo("shepherd");
    assertThat(join.getMulticastConfig().isEnabled()).isFalse();
    assertThat(join.getAutoDetectionConfig().isEnabled()).isFalse();
    assertThat(join.getTcpIpConfig().isEnabled()).isTrue();
    assertThat(join.getTcpIpConfig().getMembers()).isNotEmpty()
        .allMatch(member -> member.startsWith("127.0.0.1:"));
    assertThat(config.getNetworkConfig().getInterfaces().getInterfaces())
        .containsExactly("127.0.0.1");
    assertThat(config.getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
    assertThat(config.getMultiMapConfig("__vertx.subs").getBackupCount()).isEqualTo(1);
  }
}
