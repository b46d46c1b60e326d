package dev.shepherd.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.SplitBrainProtectionConfig;
import com.hazelcast.config.XmlConfigBuilder;
import dev.shepherd.core.ConfigException;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The Hazelcast set-up of a clustered node: the embedded {@code conf/cluster.xml} with the
 * {@link ClusterSettings} of the environment applied, or, when {@code -Dvertx.hazelcast.config}
 * names a file, that file alone (the environment is then ignored).
 */
public final class ClusterSetup {
  /** The embedded configuration, a classpath resource outside the root (see the file). */
  public static final String CONFIG_RESOURCE = "conf/cluster.xml";
  /** The system property that replaces the whole Hazelcast configuration. */
  public static final String REPLACEMENT_PROPERTY = "vertx.hazelcast.config";

  private ClusterSetup() {}

  /** The cluster manager the launcher starts Vert.x with. */
  public static ClusterManager clusterManager(ClusterSettings settings) {
    if (System.getProperty(REPLACEMENT_PROPERTY) != null) {
      return new HazelcastClusterManager();
    }
    return new HazelcastClusterManager(hazelcastConfig(settings));
  }

  /**
   * The embedded configuration with {@code settings} applied: cluster name, first port, tcp-ip
   * members (every port listed), and the one interface bound and announced ({@code host},
   * resolved to its IPv4 address when it is a name).
   */
  public static Config hazelcastConfig(ClusterSettings settings) {
    Config config = embedded();
    config.setClusterName(settings.name());
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(settings.port()).setPortAutoIncrement(true)
        .setPortCount(ClusterSettings.PORT_COUNT);
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(settings.memberAddresses());
    network.getInterfaces().setEnabled(true).clear().addInterface(ipv4(settings.host()));
    SplitBrainProtectionConfig majority =
        config.getSplitBrainProtectionConfigs().get(HazelcastLeadership.MAJORITY);
    if (majority != null && settings.majority() > 1) {
      majority.setMinimumClusterSize(settings.majority());
    } else if (majority != null) {
      // Hazelcast's protection counts two members at least; a majority of one needs none.
      majority.setEnabled(false);
    }
    return config;
  }

  private static Config embedded() {
    ClassLoader loader = ClusterSetup.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(CONFIG_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(CONFIG_RESOURCE + " is missing from the classpath");
      }
      return new XmlConfigBuilder(in).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String ipv4(String host) {
    try {
      for (InetAddress address : InetAddress.getAllByName(host)) {
        if (address instanceof Inet4Address) {
          return address.getHostAddress();
        }
      }
    } catch (UnknownHostException e) {
      // reported below
    }
    throw new ConfigException(ClusterSettings.HOST, host, "does not resolve to an IPv4 address");
  }
}
