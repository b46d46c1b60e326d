package dev.shepherd.cluster;

import com.hazelcast.config.Config;
import dev.shepherd.bench.LoopbackPorts;
import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.cluster.setup.DepartureAwareClusterManager;
import dev.shepherd.cluster.setup.RegistrationGuard;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The nodes of one multi-JVM test (register with {@code @RegisterExtension}): a cluster name and
 * a block of Hazelcast ports of its own, so tests never join each other's clusters, nodes started
 * through the docker entrypoint, and an optional member in the test's own JVM. After each test,
 * pass or fail, every node is killed and the in-JVM member leaves; a failed test prints what each
 * node wrote last (the whole of it stays under {@code target/cluster-nodes}). A JVM shutdown hook
 * kills any node still running if the test JVM itself is stopped.
 */
final class ClusterNodes implements AfterEachCallback {
  /** Nodes of every test of this JVM that are not closed yet, for the shutdown hook. */
  private static final Set<ClusterNode> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(ClusterNode::close),
        "cluster-nodes-cleanup"));
  }

  private final SplittableRandom random = new SplittableRandom();
  private final String clusterName = "shepherd-test-" + Long.toHexString(random.nextLong());
  private final int basePort = ClusterPorts.reserveBlock(LoopbackPorts.freeClusterBlock(random));
  /** {@link #majority}, or 0: the shipped default. */
  private int majority;
  private final List<ClusterNode> nodes = new ArrayList<>();
  private final List<Vertx> members = new ArrayList<>();
  private Path dir;

  String clusterName() {
    return clusterName;
  }

  int basePort() {
    return basePort;
  }

  /**
   * The application's logging configuration (the runnable jar's {@code logback.xml}): the test
   * class path has only {@code logback-test.xml}, which hides the INFO lines the tests wait for.
   */
  static final String APP_LOGBACK = Path.of("src", "app", "logback.xml").toAbsolutePath()
      .toString();

  /** The cluster environment of this test's nodes: loopback, its name, its ports. */
  Map<String, String> clusterEnv() {
    return clusterEnv(clusterName);
  }

  /** The same ports and members under another cluster name (a cluster that must stay apart). */
  Map<String, String> clusterEnv(String name) {
    Map<String, String> env = new HashMap<>(Map.of(ClusterSettings.NAME, name,
        ClusterSettings.PORT, String.valueOf(basePort), ClusterSettings.MEMBERS, "127.0.0.1",
        ClusterSettings.HOST, "127.0.0.1"));
    if (majority > 0) {
      env.put(ClusterSettings.MAJORITY, String.valueOf(majority));
    }
    return Map.copyOf(env);
  }

  /**
   * Every member this test starts or joins from now on counts {@code members} as a majority
   * ({@code SHEPHERD_CLUSTER_MAJORITY}): for a cluster of more than three members, where the
   * default of two is no majority (docs/high-availability.md). Call it before the first start.
   */
  ClusterNodes majority(int members) {
    this.majority = members;
    return this;
  }

  /** Starts a node of this test's cluster with {@code conf}. */
  ClusterNode start(String name, JsonObject conf) {
    return start(name, conf, clusterEnv(), List.of());
  }

  /**
   * Starts a node through the entrypoint with {@code conf} (written to a file), the environment
   * {@code env} and a command {@code wrapper} (empty, or e.g. {@code ip netns exec ns1}). It
   * runs from the test class path (test workers included) under this JVM's Java.
   */
  ClusterNode start(String name, JsonObject conf, Map<String, String> env, List<String> wrapper) {
    Path file = directory().resolve(name + ".json");
    try {
      Files.writeString(file, conf.encodePrettily(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> all = new HashMap<>(env);
    all.put("SHEPHERD_CONF", file.toString());
    all.put("SHEPHERD_CLASSPATH", System.getProperty("java.class.path"));
    all.put("JAVA_HOME", System.getProperty("java.home"));
    // A test's own JVM options (env's JAVA_OPTS) come after these, so they win.
    all.put("JAVA_OPTS", "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
        + " -Dlogback.configurationFile=" + APP_LOGBACK + " -Dshepherd.node=" + name
        + (env.containsKey("JAVA_OPTS") ? " " + env.get("JAVA_OPTS") : ""));
    all.putIfAbsent("HOSTNAME", name);
    ClusterNode node = ClusterNode.start(name, directory(), all, wrapper);
    nodes.add(node);
    RUNNING.add(node);
    return node;
  }

  /** A clustered Vert.x in this JVM, a member of this test's cluster (a stand-in coordinator). */
  Vertx joinAsMember() {
    return joinAsMember(false);
  }

  /**
   * Joins the cluster as a member of the test's JVM; a {@code lite} member holds no partition of
   * Hazelcast's maps (so no HA store key, no consumer list entries of others).
   */
  Vertx joinAsMember(boolean lite) {
    ClusterSettings settings = ClusterSettings.fromEnvironment(clusterEnv());
    Config config = ClusterSetup.hazelcastConfig(settings);
    config.setLiteMember(lite);
    // Leaving is a graceful shutdown, which waits for this member's partitions to move to the
    // others; after the test killed them, that would wait for nobody for up to 10 minutes.
    config.setProperty("hazelcast.graceful.shutdown.max.wait", "5");
    Vertx vertx = slowly(Vertx.builder()
        .withClusterManager(new DepartureAwareClusterManager(config)).buildClustered(),
        "joining the cluster");
    RegistrationGuard.start(vertx);
    members.add(vertx);
    return vertx;
  }

  /**
   * The future's value within a minute: joining and leaving a cluster takes seconds, and more on
   * a loaded machine, where the 10 s of {@code PoolFixture.join} is not enough.
   */
  private static <T> T slowly(Future<T> future, String what) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new AssertionError(what + " failed", e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError(what + " took longer than a minute", e);
    }
  }

  /** A configuration file shipped in {@code conf/} (a role's), as JSON to adapt. */
  static JsonObject shippedConf(String file) {
    try {
      return new JsonObject(Files.readString(Path.of("conf", file), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path directory() {
    if (dir == null) {
      try {
        Path logs = Path.of("target", "cluster-nodes");
        Files.createDirectories(logs);
        dir = Files.createTempDirectory(logs, "shepherd-cluster-test");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return dir;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (context.getExecutionException().isPresent()) {
      System.out.println("==== the nodes' whole output is in " + dir + " ====");
      for (ClusterNode node : nodes) {
        System.out.println("==== " + node + " of " + context.getDisplayName() + " ====");
        System.out.println(tail(node.output(), 120));
      }
    }
    for (ClusterNode node : nodes) {
      node.close();
      RUNNING.remove(node);
    }
    nodes.clear();
    for (Vertx member : members) {
      try {
        slowly(member.close(), "leaving the cluster");
      } catch (RuntimeException | AssertionError e) {
        System.out.println("closing the in-JVM member failed: " + e);
      }
    }
    members.clear();
  }

  private static String tail(String text, int lines) {
    List<String> all = text.lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }
}
