package dev.shepherd.cluster.setup;

import dev.shepherd.core.ConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where this node's Hazelcast member binds and which members it joins, as the environment of
 * section 8.1 (docs/rules.md) sets them: {@code SHEPHERD_CLUSTER_MEMBERS} (comma-separated {@code
 * host[:port]}, default {@code 127.0.0.1}), {@code SHEPHERD_CLUSTER_HOST} (the address bound and
 * announced, default {@code 127.0.0.1}), {@code SHEPHERD_CLUSTER_NAME} (default {@code shepherd})
 * and {@code SHEPHERD_CLUSTER_PORT} (the first port this node tries, default 5701), and {@code
 * SHEPHERD_CLUSTER_MAJORITY}: how many members make a majority of the cluster, below which a
 * side of a split may neither lead a highly available pool nor write its store (A2; default 2,
 * the majority of three members).
 *
 * <p>A node binds the first free port of {@code port … port + PORT_COUNT - 1}, so several nodes
 * on one machine need no settings; a member given without a port is looked for on each of those
 * ports, listed one by one (Hazelcast 5.3 fails on port ranges in member lists).
 *
 * @param members as given, each {@code host} or {@code host:port}
 * @param majority the split-brain protection's minimum cluster size
 */
public record ClusterSettings(String name, String host, int port, List<String> members,
    int majority) {
  public static final String MEMBERS = "SHEPHERD_CLUSTER_MEMBERS";
  public static final String HOST = "SHEPHERD_CLUSTER_HOST";
  public static final String NAME = "SHEPHERD_CLUSTER_NAME";
  public static final String PORT = "SHEPHERD_CLUSTER_PORT";
  public static final String MAJORITY = "SHEPHERD_CLUSTER_MAJORITY";

  public static final String DEFAULT_NAME = "shepherd";
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 5701;
  /** The majority of a three-member cluster, the smallest with which HA is available. */
  public static final int DEFAULT_MAJORITY = 2;
  /** Ports a node tries from its first one, and on which a member without a port is sought. */
  public static final int PORT_COUNT = 5;

  private static final String NAME_PATTERN = "[A-Za-z0-9_.-]{1,64}";
  private static final String HOST_PATTERN = "[A-Za-z0-9_.-]{1,253}";

  public ClusterSettings {
    members = List.copyOf(members);
  }

  /** Settings with the default majority. */
  public ClusterSettings(String name, String host, int port, List<String> members) {
    this(name, host, port, members, DEFAULT_MAJORITY);
  }

  /** The settings of a node started with no cluster environment: everything on loopback. */
  public static ClusterSettings defaults() {
    return fromEnvironment(Map.of());
  }

  /**
   * Reads the five variables; a bad value fails with a {@link ConfigException} naming the
   * variable and the value.
   */
  public static ClusterSettings fromEnvironment(Map<String, String> env) {
    String name = value(env, NAME, DEFAULT_NAME);
    if (!name.matches(NAME_PATTERN)) {
      throw new ConfigException(NAME, name, "must be 1-64 letters, digits, '.', '_' or '-'");
    }
    String host = value(env, HOST, DEFAULT_HOST);
    if (!host.matches(HOST_PATTERN)) {
      throw new ConfigException(HOST, host,
          "must be an IPv4 address or a host name of this machine");
    }
    String portText = value(env, PORT, String.valueOf(DEFAULT_PORT));
    int port = port(PORT, portText, portText);
    if (port > 65_535 - PORT_COUNT + 1) {
      throw new ConfigException(PORT, portText,
          "must leave room for " + PORT_COUNT + " ports (at most " + (65_535 - PORT_COUNT + 1)
              + ")");
    }
    String membersText = value(env, MEMBERS, DEFAULT_HOST);
    List<String> members = new ArrayList<>();
    for (String raw : membersText.split(",", -1)) {
      String member = raw.trim();
      if (member.isEmpty()) {
        throw new ConfigException(MEMBERS, membersText,
            "has an empty entry; expected comma-separated host[:port]");
      }
      int colon = member.indexOf(':');
      String memberHost = colon < 0 ? member : member.substring(0, colon);
      if (!memberHost.matches(HOST_PATTERN)) {
        throw new ConfigException(MEMBERS, membersText,
            "entry \"" + member + "\" is not host[:port] (IPv4 address or host name)");
      }
      if (colon >= 0) {
        String memberPort = member.substring(colon + 1);
        if (memberPort.contains("-")) {
          throw new ConfigException(MEMBERS, membersText, "entry \"" + member
              + "\" has a port range; list each member's port on its own");
        }
        port(MEMBERS, memberPort, membersText);
      }
      members.add(member);
    }
    String majorityText = value(env, MAJORITY, String.valueOf(DEFAULT_MAJORITY));
    int majority;
    try {
      majority = Integer.parseInt(majorityText);
    } catch (NumberFormatException e) {
      majority = 0;
    }
    if (majority < 1 || majority > 1000) {
      throw new ConfigException(MAJORITY, majorityText, "must be a whole number from 1 to 1000"
          + " (the majority of the cluster's members: 2 for three, 3 for five; 1 lets a member"
          + " alone lead highly available pools, for a cluster of one)");
    }
    return new ClusterSettings(name, host, port, members, majority);
  }

  /**
   * The tcp-ip member list: {@code host:port} entries, a member without a port expanded to each
   * port a node may bind, no duplicates.
   */
  public List<String> memberAddresses() {
    List<String> out = new ArrayList<>();
    for (String member : members) {
      if (member.indexOf(':') >= 0) {
        addOnce(out, member);
      } else {
        for (int i = 0; i < PORT_COUNT; i++) {
          addOnce(out, member + ":" + (port + i));
        }
      }
    }
    return out;
  }

  private static void addOnce(List<String> list, String item) {
    if (!list.contains(item)) {
      list.add(item);
    }
  }

  private static String value(Map<String, String> env, String name, String fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() ? fallback : value.trim();
  }

  private static int port(String variable, String text, String whole) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65_535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConfigException(variable, whole, "port \"" + text
        + "\" must be a whole number from 1 to 65535");
  }
}
