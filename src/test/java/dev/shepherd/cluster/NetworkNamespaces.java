package dev.shepherd.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Separate hosts on one machine: {@code count} network namespaces, each with its own address
 * {@code 10.77.<n>.<i+2>} on a veth pair whose other end is on a bridge that has {@code
 * 10.77.<n>.1} in the test's own namespace (so the test reaches every host). {@link #cut} takes a
 * host's link down, as a pulled cable would. Needs root and iproute2's {@code ip}; {@link
 * #unavailable()} says why not otherwise. Names and the subnet are random and checked against
 * what exists; {@link #close()} (and a JVM shutdown hook) removes everything it made.
 *
 * <p>Run as CI runs it, inside {@code unshare -n}, everything it makes stays in that namespace.
 */
final class NetworkNamespaces implements AutoCloseable {
  private static final Set<NetworkNamespaces> OPEN = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(NetworkNamespaces::close),
        "network-namespaces-cleanup"));
  }

  private final String tag;
  private final int subnet;
  private final int count;
  private final List<String> made = new ArrayList<>();
  private boolean bridgeMade;

  private NetworkNamespaces(String tag, int subnet, int count) {
    this.tag = tag;
    this.subnet = subnet;
    this.count = count;
  }

  /** Why namespaces cannot be made here, or empty when they can. */
  static Optional<String> unavailable() {
    try {
      Result id = run(List.of("id", "-u"));
      if (!id.output().trim().equals("0")) {
        return Optional.of("network namespaces need root (uid is " + id.output().trim() + ")");
      }
      if (run(List.of("ip", "-V")).status() != 0) {
        return Optional.of("iproute2's ip is not installed");
      }
      String probe = "shprobe" + Integer.toHexString(new SplittableRandom().nextInt(1 << 16));
      Result add = run(List.of("ip", "netns", "add", probe));
      if (add.status() != 0) {
        return Optional.of("ip netns add failed here: " + add.output().trim());
      }
      run(List.of("ip", "netns", "del", probe));
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("cannot run id/ip: " + e.getMessage());
    }
  }

  /** Makes {@code count} hosts on a fresh bridge; undoes what it made if a step fails. */
  static NetworkNamespaces create(int count) {
    SplittableRandom random = new SplittableRandom();
    String addresses = check(List.of("ip", "-4", "addr")).output()
        + check(List.of("ip", "-4", "route")).output();
    int subnet = -1;
    for (int attempt = 0; attempt < 256 && subnet < 0; attempt++) {
      int candidate = random.nextInt(256);
      if (!addresses.contains("10.77." + candidate + ".")) {
        subnet = candidate;
      }
    }
    if (subnet < 0) {
      throw new IllegalStateException("no free 10.77.n.0/24 subnet");
    }
    NetworkNamespaces hosts = new NetworkNamespaces(
        String.format("%04x", random.nextInt(1 << 16)), subnet, count);
    OPEN.add(hosts);
    try {
      hosts.build();
    } catch (RuntimeException e) {
      hosts.close();
      throw e;
    }
    return hosts;
  }

  private void build() {
    String bridge = bridge();
    check(List.of("ip", "link", "add", bridge, "type", "bridge"));
    bridgeMade = true;
    check(List.of("ip", "addr", "add", bridgeAddress() + "/24", "dev", bridge));
    check(List.of("ip", "link", "set", bridge, "up"));
    for (int i = 0; i < count; i++) {
      String ns = namespace(i);
      check(List.of("ip", "netns", "add", ns));
      made.add(ns);
      String inside = "shv" + tag + i;
      check(List.of("ip", "link", "add", inside, "type", "veth", "peer", "name", peer(i)));
      check(List.of("ip", "link", "set", inside, "netns", ns));
      check(List.of("ip", "link", "set", peer(i), "master", bridge, "up"));
      check(List.of("ip", "netns", "exec", ns, "ip", "addr", "add", address(i) + "/24", "dev",
          inside));
      check(List.of("ip", "netns", "exec", ns, "ip", "link", "set", inside, "up"));
      check(List.of("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"));
    }
  }

  /** The address of host {@code i} (from 0). */
  String address(int i) {
    return "10.77." + subnet + "." + (i + 2);
  }

  /** The test's own address on the bridge. */
  String bridgeAddress() {
    return "10.77." + subnet + ".1";
  }

  String namespace(int i) {
    return "shn" + tag + "-" + i;
  }

  /** The command prefix that runs a program on host {@code i}. */
  List<String> exec(int i) {
    return List.of("ip", "netns", "exec", namespace(i));
  }

  /** Takes host {@code i}'s link down: it can reach no other host, nor they it. */
  void cut(int i) {
    check(List.of("ip", "link", "set", peer(i), "down"));
  }

  /** Brings host {@code i}'s link back up. */
  void restore(int i) {
    check(List.of("ip", "link", "set", peer(i), "up"));
  }

  private String bridge() {
    return "shb" + tag;
  }

  private String peer(int i) {
    return "shp" + tag + i;
  }

  /** Removes the namespaces (their veth ends go with them) and the bridge. */
  @Override
  public void close() {
    OPEN.remove(this);
    for (String ns : made) {
      quietly(List.of("ip", "netns", "del", ns));
    }
    made.clear();
    if (bridgeMade) {
      quietly(List.of("ip", "link", "del", bridge()));
      bridgeMade = false;
    }
  }

  private record Result(int status, String output) {}

  private static Result check(List<String> command) {
    try {
      Result result = run(command);
      if (result.status() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed ("
            + result.status() + "): " + result.output().trim());
      }
      return result;
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + e, e);
    }
  }

  private static void quietly(List<String> command) {
    try {
      run(command);
    } catch (IOException e) {
      // best effort: nothing else to do while cleaning up
    }
  }

  private static Result run(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IOException(String.join(" ", command) + " did not finish");
      }
      return new Result(process.exitValue(), output);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
