package dev.shepherd.bench;

import dev.shepherd.core.HostState;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.demo.DemoWorker;
import dev.shepherd.runtime.coordinator.Coordinator;
import dev.shepherd.runtime.JobRequest;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.PoolVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * How fast a pool gets over losing a worker host: this JVM coordinates a pool of hosts alone
 * ({@code worker.instances: 0}, {@code RETRY}); two host nodes run in processes of their own,
 * started through {@code docker/entrypoint.sh} as a deployment starts them (2 slots ×
 * {@code maxConcurrency} 8 of the demo worker each). Each of {@code --kills} rounds submits as
 * many jobs as one host runs at once ({@code --job-ms} each), so that whatever share the victim
 * runs, the other host has room for all of it; once every job runs, it kills the host running
 * most of them (the pool fills slots in order, so usually all) with {@code kill -9} and measures from the kill: the detection time (the host {@code LOST} at the
 * coordinator), and the time until every job it was running has been run again on the other
 * host and answered (so one job's length more than the re-dispatch). Then it restarts the killed host (same id: it gets its slots back)
 * and waits for it before the next round. Prints each round, then median and max.
 *
 * <p>Run from a checkout, after {@code mvn -B -q -DskipTests package}:
 * <pre>java -cp target/shepherd.jar dev.shepherd.bench.NodeLossBench --kills 5</pre>
 */
public final class NodeLossBench {
  private static final String POOL = "loss";
  private static final Duration NODE_START = Duration.ofSeconds(180);
  private static final int SLOTS = 2;
  private static final int MAX_CONCURRENCY = 8;

  private final BenchCluster cluster;
  private final Vertx vertx;
  private final PoolClient client;
  private final long jobMs;
  private final Map<String, ChildNode> hosts = new HashMap<>();
  private final Map<String, Long> lostAt = new ConcurrentHashMap<>();
  /** Host processes started so far (names their output files). */
  private int starts;

  private NodeLossBench(BenchCluster cluster, Vertx vertx, long jobMs) {
    this.cluster = cluster;
    this.vertx = vertx;
    this.client = PoolClient.create(vertx, POOL);
    this.jobMs = jobMs;
  }

  public static void main(String[] args) throws Exception {
    int kills = 5;
    long jobMs = 500;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--kills" -> kills = Integer.parseInt(args[++i]);
        case "--job-ms" -> jobMs = Long.parseLong(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (use --kills N --job-ms MS)");
      }
    }
    BenchCluster cluster = BenchCluster.create();
    Vertx vertx = cluster.join();
    NodeLossBench bench = new NodeLossBench(cluster, vertx, jobMs);
    try {
      bench.run(kills);
    } finally {
      bench.hosts.values().forEach(ChildNode::close);
      vertx.close().await();
    }
  }

  private void run(int kills) throws Exception {
    JsonObject pool = new JsonObject().put("name", POOL)
        .put("worker", new JsonObject().put("class", DemoWorker.class.getName())
            .put("instances", 0))
        .put("interruption", "RETRY").put("maxAttempts", 5).put("backlogCapacity", 1_000)
        .put("jobTimeoutMs", 60_000).put("hostGraceMs", 600_000);
    vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(pool)).await();
    Coordinator coordinator = LocalPools.find(vertx, POOL);
    coordinator.observe(new PoolObserver() {
      @Override
      public void onNotice(Notice notice) {
        if (notice instanceof Notice.HostChanged changed && changed.state() == HostState.LOST) {
          lostAt.putIfAbsent(changed.host(), System.nanoTime());
        }
      }
    });
    startHost("h1");
    startHost("h2");
    awaitReady("h1");
    awaitReady("h2");
    System.out.printf(Locale.ROOT, "NodeLossBench: 2 hosts (processes through docker/entrypoint.sh,"
            + " %d slots x maxConcurrency %d each), %d jobs of %d ms per round, RETRY; %d cores,"
            + " Java %s%n", SLOTS, MAX_CONCURRENCY, SLOTS * MAX_CONCURRENCY, jobMs,
        Runtime.getRuntime().availableProcessors(), Runtime.version());
    // One round nobody is killed in: the JIT and the first cross-node messages.
    runJobs("warm-up", SLOTS * MAX_CONCURRENCY, false);

    List<Long> detections = new ArrayList<>();
    List<Long> reruns = new ArrayList<>();
    for (int kill = 1; kill <= kills; kill++) {
      Round round = runJobs("kill-" + kill, SLOTS * MAX_CONCURRENCY, true);
      String victim = round.victim;
      detections.add(round.detectionMs);
      reruns.add(round.rerunMs);
      System.out.printf(Locale.ROOT, "kill %d (%s): LOST after %d ms; its %d running jobs run"
              + " again on the other host and answered after %d ms (jobs of %d ms); every job"
              + " answered once%n", kill, victim, round.detectionMs, round.rerun, round.rerunMs,
          jobMs);
      startHost(victim);
      awaitReady(victim);
    }
    System.out.printf(Locale.ROOT, "over %d kills: detection median %d ms, max %d ms;"
            + " kill -> all its jobs answered elsewhere median %d ms, max %d ms (jobs of %d ms)%n",
        kills, median(detections), max(detections), median(reruns), max(reruns), jobMs);
  }

  private record Round(String victim, long detectionMs, long rerunMs, int rerun) {}

  /**
   * Submits {@code count} jobs; with {@code kill}, once all of them run, kills the host running
   * most of them with {@code kill -9}. Waits for every answer and checks that each job completed once.
   */
  private Round runJobs(String name, int count, boolean kill) throws Exception {
    Map<String, Long> answeredAt = new ConcurrentHashMap<>();
    Map<String, Outcome> outcomes = new ConcurrentHashMap<>();
    Map<String, Integer> answers = new ConcurrentHashMap<>();
    List<Future<Outcome>> all = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String job = name + "-" + i;
      all.add(client.outcome(new JobRequest(job, new JsonObject().put("sleepMs", jobMs), null, 0))
          .onSuccess(o -> {
            answeredAt.put(job, System.nanoTime());
            outcomes.put(job, o);
            answers.merge(job, 1, Integer::sum);
          }));
    }
    long killedAt = 0;
    String victim = null;
    if (kill) {
      victim = busiestHost(awaitRunning(count));
      lostAt.remove(victim);
      killedAt = System.nanoTime();
      hosts.remove(victim).kill();
    }
    Future.all(all).await(120, TimeUnit.SECONDS);
    long lastRerun = killedAt;
    int rerun = 0;
    for (Map.Entry<String, Outcome> e : outcomes.entrySet()) {
      if (!(e.getValue() instanceof Outcome.Completed completed)) {
        throw new IllegalStateException(e.getKey() + " was not completed: " + e.getValue());
      }
      if (answers.get(e.getKey()) != 1) {
        throw new IllegalStateException(e.getKey() + " was answered " + answers.get(e.getKey())
            + " times");
      }
      if (completed.attempts() > 1) {
        rerun++;
        lastRerun = Math.max(lastRerun, answeredAt.get(e.getKey()));
        if (victim == null || completed.worker().startsWith(victim + "/")) {
          throw new IllegalStateException(e.getKey() + " ran again where it should not: "
              + completed);
        }
      }
    }
    if (outcomes.size() != count) {
      throw new IllegalStateException(name + ": " + outcomes.size() + " of " + count
          + " answered");
    }
    if (victim == null) {
      return new Round(null, 0, 0, 0);
    }
    Long lost = lostAt.get(victim);
    if (lost == null) {
      throw new IllegalStateException(victim + " was never declared LOST");
    }
    return new Round(victim, TimeUnit.NANOSECONDS.toMillis(lost - killedAt),
        TimeUnit.NANOSECONDS.toMillis(lastRerun - killedAt), rerun);
  }

  /** Starts host {@code id} through the docker entrypoint, as a deployment would. */
  private void startHost(String id) {
    JsonObject conf = new JsonObject().put("http", new JsonObject().put("enabled", false))
        .put("hosts", new JsonArray().add(new JsonObject().put("pool", POOL).put("id", id)
            .put("worker", new JsonObject().put("class", DemoWorker.class.getName())
                .put("instances", SLOTS).put("maxConcurrency", MAX_CONCURRENCY)
                .put("threading", "EVENT_LOOP"))));
    Map<String, String> env = new HashMap<>(cluster.env());
    env.put("SHEPHERD_CONF", conf.encode());
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("JAVA_OPTS", "-Xmx256m");
    String classPath = System.getProperty("java.class.path");
    if (classPath.endsWith(".jar") && !classPath.contains(File.pathSeparator)) {
      env.put("JAR", Path.of(classPath).toAbsolutePath().toString());
    } else {
      env.put("SHEPHERD_CLASSPATH", classPath);
    }
    ChildNode node = ChildNode.start(id + "-" + (++starts),
        List.of(Path.of("docker", "entrypoint.sh").toAbsolutePath().toString()), env);
    node.awaitLine("host " + id + ": registered with pool " + POOL, NODE_START);
    hosts.put(id, node);
  }

  /** Waits until the pool has host {@code id} UP with all its slots idle. */
  private void awaitReady(String id) throws InterruptedException {
    awaitStatus(id + " ready", s -> slotsOf(s, id).size() == SLOTS
        && slotsOf(s, id).stream().allMatch(t -> "IDLE".equals(t.getString("phase"))));
  }

  /** Waits until {@code inFlight} jobs run; the status that showed it. */
  private JsonObject awaitRunning(int inFlight) throws InterruptedException {
    return awaitStatus(inFlight + " running", s -> inFlight(s.getJsonArray("slots").stream()
        .map(JsonObject.class::cast).toList()) == inFlight);
  }

  private String busiestHost(JsonObject status) {
    return hosts.keySet().stream().max(java.util.Comparator.comparingInt(
        h -> inFlight(slotsOf(status, h)))).orElseThrow();
  }

  private static int inFlight(List<JsonObject> slots) {
    return slots.stream().mapToInt(t -> t.getInteger("inFlight")).sum();
  }

  private JsonObject awaitStatus(String what, java.util.function.Predicate<JsonObject> condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + NODE_START.toNanos();
    JsonObject status = null;
    while (System.nanoTime() < deadline) {
      status = client.status().await();
      if (condition.test(status)) {
        return status;
      }
      Thread.sleep(5);
    }
    throw new IllegalStateException("not seen: " + what + "; last status " + status);
  }

  private static List<JsonObject> slotsOf(JsonObject status, String host) {
    return status.getJsonArray("slots").stream().map(JsonObject.class::cast)
        .filter(s -> host.equals(s.getString("host"))).toList();
  }

  private static long median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static long max(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).max().orElse(0);
  }
}
