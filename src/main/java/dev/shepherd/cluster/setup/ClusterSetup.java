package dev.shepherd.cluster.setup;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.SplitBrainProtectionConfig;
import com.hazelcast.config.XmlConfigBuilder;
import dev.shepherd.cluster.ha.HazelcastLeadership;
import dev.shepherd.core.ConfigException;
import io.vertx.core.spi.cluster.ClusterManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.util.Locale;

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

  /**
   * The cluster manager the launcher starts Vert.x with: vertx-hazelcast's, routing around a
   * departed member at once ({@link DepartureAwareClusterManager}).
   */
  public static ClusterManager clusterManager(ClusterSettings settings) {
    if (System.getProperty(REPLACEMENT_PROPERTY) != null) {
      return new DepartureAwareClusterManager();
    }
    return new DepartureAwareClusterManager(hazelcastConfig(settings));
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

  /**
   * Why this node's cluster member could not bind, found before Hazelcast tries (whose failure is
   * an ERROR and a stack trace, twice): one line naming the address, the ports and the variable
   * to change, or null when one of its {@link ClusterSettings#PORT_COUNT} ports is free (or a
   * replaced configuration decides the ports). A port taken between this check and Hazelcast's
   * bind still fails Hazelcast's way.
   */
  public static String bindProblem(ClusterSettings settings) {
    if (System.getProperty(REPLACEMENT_PROPERTY) != null) {
      return null;
    }
    InetAddress address;
    try {
      address = InetAddress.getByName(ipv4(settings.host()));
    } catch (ConfigException | UnknownHostException e) {
      return null; // the configuration's check says what is wrong with the host
    }
    int last = settings.port() + ClusterSettings.PORT_COUNT - 1;
    for (int port = settings.port(); port <= last; port++) {
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(address, port));
        return null;
      } catch (BindException e) {
        String message = String.valueOf(e.getMessage());
        if (!message.toLowerCase(Locale.ROOT).contains("in use")) {
          return "cluster: " + settings.host() + " cannot be bound: " + message + " (set "
              + ClusterSettings.HOST + " to an address of this machine)";
        }
      } catch (IOException e) {
        return null; // not a busy port: Hazelcast reports it
      }
    }
    return "cluster: " + settings.host() + ":" + settings.port() + "-" + last
        + " are all in use (set " + ClusterSettings.PORT + " to another first port)";
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
