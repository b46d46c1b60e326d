package dev.shepherd.bench;

import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolVerticle;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * The cluster benchmark: two JVMs on loopback. This JVM is node A: it coordinates the pool
 * {@code bench} with {@code worker.instances: 0} and submits through an in-JVM {@link
 * PoolClient}. Node B ({@link BenchHostNode}, a child JVM) runs the pool's slots as a worker host
 * ({@code --slots} × {@code maxConcurrency} {@code --max-concurrency}, echo worker on event loops)
 * and, beside them, {@code --consumers} raw event-bus consumers. In one run, round by round and
 * interleaved after a warm-up, it measures the echo job through the pool against raw clustered
 * request/reply from A to B's consumers, at {@code --inflight} jobs in flight and at 1. For each
 * it prints jobs/s, latency percentiles, the CPU time of both JVMs per job, and the cluster
 * messages per job each way (counted by event-bus interceptors on A), then the ratios, and what
 * both JVMs spent on GC and JIT compilation during the measured rounds (warm-up is by time, and
 * the JIT's share says whether it was long enough).
 *
 * <pre>java -cp target/shepherd.jar dev.shepherd.bench.ClusterBench --inflight 256 --jobs 1000000
 *   (or --quick; --slots 4 --max-concurrency 64 --consumers 4 --rounds 5 --warmup-seconds 30;
 *   --modes pool to profile one mode; --verbose for every round with both JVMs' GC and JIT
 *   time; -Dshepherd.bench.childJvmOptions="..." adds JVM options to node B)</pre>
 */
public final class ClusterBench {
  private static final String POOL = "bench";
  private static final Addresses ADDRESSES = Addresses.forPool(POOL);
  private static final Duration NODE_START = Duration.ofSeconds(180);

  private final Vertx vertx;
  private final ChildNode hostNode;
  private final PoolClient client;
  private final Context driverContext;
  private final AtomicLong messagesOut = new AtomicLong();
  private final AtomicLong messagesIn = new AtomicLong();
  private final boolean verbose;
  /** What both JVMs spent on GC and JIT during the measured rounds (warm-up excluded). */
  private JvmCounters spentA = new JvmCounters(0, 0, 0);
  private JvmCounters spentB = new JvmCounters(0, 0, 0);

  private ClusterBench(Vertx vertx, ChildNode hostNode, boolean verbose) {
    this.vertx = vertx;
    this.verbose = verbose;
    this.hostNode = hostNode;
    this.client = PoolClient.create(vertx, POOL);
    this.driverContext = vertx.getOrCreateContext();
    String commands = ADDRESSES.prefix() + ".host.";
    vertx.eventBus().addOutboundInterceptor(ctx -> {
      String address = ctx.message().address();
      if (address.startsWith(commands) || address.equals(LoadBench.RAW)) {
        messagesOut.incrementAndGet();
      }
      ctx.next();
    });
    vertx.eventBus().addInboundInterceptor(ctx -> {
      String address = ctx.message().address();
      if (address.equals(ADDRESSES.completed()) || address.startsWith("__vertx.reply.")) {
        messagesIn.incrementAndGet();
      }
      ctx.next();
    });
  }

  public static void main(String[] args) throws Exception {
    int slots = 4;
    int maxConcurrency = 64;
    int consumers = 4;
    int inflight = 256;
    int jobs = 200_000;
    int rounds = 5;
    int warmupSeconds = 30;
    boolean verbose = false;
    List<String> modes = List.of("raw", "pool");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--slots" -> slots = Integer.parseInt(args[++i]);
        case "--max-concurrency" -> maxConcurrency = Integer.parseInt(args[++i]);
        case "--consumers" -> consumers = Integer.parseInt(args[++i]);
        case "--inflight" -> inflight = Integer.parseInt(args[++i]);
        case "--jobs" -> jobs = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--quick" -> jobs = 40_000;
        case "--modes" -> modes = List.of(args[++i].split(","));
        case "--warmup-seconds" -> warmupSeconds = Integer.parseInt(args[++i]);
        case "--verbose" -> verbose = true;
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (use --inflight N --jobs N --rounds N --slots N --max-concurrency N"
            + " --consumers N --modes raw,pool --warmup-seconds N --verbose | --quick)");
      }
    }
    BenchCluster cluster = BenchCluster.create();
    Vertx vertx = cluster.join();
    ChildNode b = null;
    try {
      JsonObject pool = new JsonObject().put("name", POOL)
          .put("worker", new JsonObject().put("class", BenchWorker.class.getName())
              .put("instances", 0))
          .put("backlogCapacity", Math.max(1_000, inflight * 4)).put("jobTimeoutMs", 60_000);
      vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(pool)).await();
      b = ChildNode.start("B", ChildNode.javaCommand(BenchHostNode.class.getName(),
          "--pool", POOL, "--slots", String.valueOf(slots),
          "--max-concurrency", String.valueOf(maxConcurrency),
          "--consumers", String.valueOf(consumers)), cluster.env());
      b.awaitLine(BenchHostNode.READY, NODE_START);
      ClusterBench bench = new ClusterBench(vertx, b, verbose);
      bench.awaitHost(slots);
      System.out.printf(Locale.ROOT, "ClusterBench: A = this JVM (pid %d: the pool's coordinator"
              + " and the client), B = pid %d (host %s: %d slots x maxConcurrency %d, and %d raw"
              + " consumers); %d in flight, %d jobs per mode, %d rounds; %d cores, Java %s; %s%n",
          ProcessHandle.current().pid(), b.pid(), BenchHostNode.HOST_ID, slots, maxConcurrency,
          consumers, inflight, jobs, rounds, Runtime.getRuntime().availableProcessors(),
          Runtime.version(), BenchCluster.trust(System.getenv()));
      bench.run(inflight, jobs, rounds, modes, warmupSeconds);
    } finally {
      if (b != null) {
        b.close();
      }
      vertx.close().await();
    }
  }

  /** Waits until the pool has host B up with all its slots idle. */
  private void awaitHost(int slots) throws InterruptedException {
    long deadline = System.nanoTime() + NODE_START.toNanos();
    JsonObject status = null;
    while (System.nanoTime() < deadline) {
      status = client.status().await();
      JsonArray all = status.getJsonArray("slots");
      long idle = all.stream().map(JsonObject.class::cast)
          .filter(s -> BenchHostNode.HOST_ID.equals(s.getString("host")))
          .filter(s -> "IDLE".equals(s.getString("phase"))).count();
      if (idle == slots) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("host " + BenchHostNode.HOST_ID + " not ready: " + status
        + "\n" + hostNode.output());
  }

  private void run(int inflight, int jobs, int rounds, List<String> names, int warmupSeconds)
      throws Exception {
    JsonObject payload = new JsonObject().put("echo", "hello").put("spinNanos", 0L);
    JsonObject rawBody = new JsonObject().put("payload", payload);
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(60_000);
    Map<String, Supplier<Future<?>>> modes = new LinkedHashMap<>();
    for (String name : names) {
      switch (name) {
        case "raw" -> modes.put(name, () -> vertx.eventBus().request(LoadBench.RAW, rawBody,
            options));
        case "pool" -> modes.put(name, () -> client.submit(payload));
        default -> throw new IllegalArgumentException("--modes: raw or pool, not " + name);
      }
    }

    warmUp(modes, jobs, inflight, warmupSeconds);
    Map<String, Tally> loaded = new LinkedHashMap<>();
    Map<String, Tally> single = new LinkedHashMap<>();
    modes.keySet().forEach(m -> {
      loaded.put(m, new Tally());
      single.put(m, new Tally());
    });
    // Each round runs every mode back to back; the ratio of a round's pool to its raw is taken
    // under the same neighbours' load, so their median is steadier than the totals' ratio. The
    // order alternates from round to round, so neither mode always inherits the other's garbage.
    List<Double> rateRatios = new ArrayList<>();
    List<Double> p50Ratios = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      Map<String, Round> these = new HashMap<>();
      for (Map.Entry<String, Supplier<Future<?>>> mode : inOrder(modes, round)) {
        Round r = measure(mode.getValue(), jobs / rounds, inflight);
        r.addTo(loaded.get(mode.getKey()));
        these.put(mode.getKey(), r);
        detail("round " + round, mode.getKey(), inflight, r);
      }
      if (these.containsKey("raw") && these.containsKey("pool")) {
        rateRatios.add(these.get("pool").rate() / these.get("raw").rate());
      }
    }
    for (int round = 0; round < rounds; round++) {
      Map<String, Round> these = new HashMap<>();
      for (Map.Entry<String, Supplier<Future<?>>> mode : inOrder(modes, round)) {
        Round r = measure(mode.getValue(), Math.max(200, jobs / 100 / rounds), 1);
        r.addTo(single.get(mode.getKey()));
        these.put(mode.getKey(), r);
        detail("round " + round, mode.getKey(), 1, r);
      }
      if (these.containsKey("raw") && these.containsKey("pool")) {
        p50Ratios.add((double) these.get("pool").p50() / these.get("raw").p50());
      }
    }
    for (Map.Entry<String, Tally> t : loaded.entrySet()) {
      System.out.println(t.getValue().line("echo", t.getKey(), inflight));
    }
    for (Map.Entry<String, Tally> t : single.entrySet()) {
      System.out.println(t.getValue().line("echo", t.getKey(), 1));
    }
    System.out.printf(Locale.ROOT, "in the measured rounds: A gc %d ms (%d), jit %d ms; B gc %d ms"
            + " (%d), jit %d ms%n", spentA.gcMillis(), spentA.gcCount(), spentA.jitMillis(),
        spentB.gcMillis(), spentB.gcCount(), spentB.jitMillis());
    System.out.printf(Locale.ROOT, "one hand-off between two event loops of A (half a"
        + " runOnContext round trip): p50 %.1f us%n", handOffMicros());
    if (!modes.keySet().containsAll(List.of("raw", "pool"))) {
      return;
    }
    System.out.printf(Locale.ROOT, "echo: pool/raw at %d in flight = %.2f (goal >= 2.0);"
            + " p50 at 1 in flight pool/raw = %.2f (goal <= 1.3)%n", inflight,
        loaded.get("pool").rate() / loaded.get("raw").rate(),
        (double) single.get("pool").p50() / single.get("raw").p50());
    System.out.printf(Locale.ROOT, "per round: pool/raw at %d in flight %s, median %.2f;"
            + " p50 at 1 in flight pool/raw %s, median %.2f%n", inflight, show(rateRatios),
        median(rateRatios), show(p50Ratios), median(p50Ratios));
  }

  /**
   * Runs every mode, in turn, at {@code inflight} and at 1, until {@code seconds} have passed:
   * the first cross-node requests are slow, and both paths need the JIT, whose compilers share
   * the two cores with the benchmark. A warm-up counted in jobs (three passes of a tenth of the
   * jobs, about 2 s at first) left rounds with the optimizing compiler still at work in them.
   */
  private void warmUp(Map<String, Supplier<Future<?>>> modes, int jobs, int inflight,
      int seconds) throws Exception {
    long until = System.nanoTime() + seconds * 1_000_000_000L;
    int pass = 0;
    do {
      for (Map.Entry<String, Supplier<Future<?>>> mode : modes.entrySet()) {
        detail("warm-up " + pass, mode.getKey(), inflight,
            measure(mode.getValue(), Math.max(2_000, jobs / 10), inflight));
        detail("warm-up " + pass, mode.getKey(), 1,
            measure(mode.getValue(), Math.max(200, jobs / 200), 1));
      }
      pass++;
    } while (System.nanoTime() < until);
  }

  /** The modes in their order for even rounds, reversed for odd ones. */
  private static List<Map.Entry<String, Supplier<Future<?>>>> inOrder(
      Map<String, Supplier<Future<?>>> modes, int round) {
    List<Map.Entry<String, Supplier<Future<?>>>> order = new ArrayList<>(modes.entrySet());
    if (round % 2 == 1) {
      java.util.Collections.reverse(order);
    }
    return order;
  }

  /** With {@code --verbose}: one round's figures and what both JVMs spent on GC and JIT in it. */
  private void detail(String what, String mode, int window, Round r) {
    if (what.startsWith("round")) {
      spentA = spentA.plus(r.jvmA());
      spentB = spentB.plus(r.jvmB());
    }
    if (!verbose) {
      return;
    }
    System.out.printf(Locale.ROOT, "  %-11s %-4s inflight=%-4d %8.0f jobs/s  p50=%6d us  %6d ms"
            + "  A: gc %3d ms (%d), jit %4d ms  B: gc %3d ms (%d), jit %4d ms%n", what, mode,
        window, r.rate(), r.p50(), r.elapsedNanos() / 1_000_000, r.jvmA().gcMillis(),
        r.jvmA().gcCount(), r.jvmA().jitMillis(), r.jvmB().gcMillis(), r.jvmB().gcCount(),
        r.jvmB().jitMillis());
  }

  private static String show(List<Double> values) {
    return values.stream().map(v -> String.format(Locale.ROOT, "%.2f", v)).toList().toString();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /**
   * What a hand-off from one event loop to another costs here, the unit of the latency at one
   * job in flight: half the median round trip of {@code runOnContext} between two contexts on
   * different event loops.
   */
  private double handOffMicros() throws Exception {
    ContextInternal other = ((VertxInternal) vertx).createEventLoopContext();
    while (other.nettyEventLoop() == ((ContextInternal) driverContext).nettyEventLoop()) {
      other = ((VertxInternal) vertx).createEventLoopContext();
    }
    ContextInternal peer = other;
    Histogram trips = new Histogram(60_000_000L, 3);
    Promise<Void> done = Promise.promise();
    int count = 20_000;
    driverContext.runOnContext(v -> pingPong(peer, trips, count, done));
    done.future().await();
    return trips.getValueAtPercentile(50) / 2.0 / 1000.0;
  }

  private void pingPong(Context other, Histogram trips, int left, Promise<Void> done) {
    if (left == 0) {
      done.complete();
      return;
    }
    long start = System.nanoTime();
    other.runOnContext(v -> driverContext.runOnContext(w -> {
      trips.recordValue(Math.max(1, System.nanoTime() - start));
      pingPong(other, trips, left - 1, done);
    }));
  }

  /** One round's figures, before they join a mode's tally. */
  private record Round(long jobs, long elapsedNanos, long cpuA, long cpuB, long out, long in,
      Histogram latency, JvmCounters jvmA, JvmCounters jvmB) {
    void addTo(Tally tally) {
      tally.add(jobs, elapsedNanos, cpuA, cpuB, out, in, latency);
    }

    double rate() {
      return jobs * 1e9 / elapsedNanos;
    }

    long p50() {
      return latency.getValueAtPercentile(50);
    }
  }

  private Round measure(Supplier<Future<?>> request, int count, int window) throws Exception {
    Histogram latency = new Histogram(60_000_000L, 3);
    Promise<Driver> finished = Promise.promise();
    long outBefore = messagesOut.get();
    long inBefore = messagesIn.get();
    JvmCounters jvmB = hostCounters();
    JvmCounters jvmA = JvmCounters.now();
    long cpuB = hostNode.cpuNanos();
    long cpuA = Driver.processCpuNanos();
    long start = System.nanoTime();
    driverContext.runOnContext(v -> {
      Driver driver = new Driver(request, count, latency);
      driver.run(window).onComplete(ar -> finished.complete(driver));
    });
    Driver driver = finished.future().await();
    long elapsed = System.nanoTime() - start;
    cpuA = Driver.processCpuNanos() - cpuA;
    cpuB = hostNode.cpuNanos() - cpuB;
    jvmA = JvmCounters.now().since(jvmA);
    jvmB = hostCounters().since(jvmB);
    if (driver.failed() > 0) {
      throw new IllegalStateException(driver.failed() + " of " + count + " requests failed");
    }
    return new Round(count, elapsed, cpuA, cpuB, messagesOut.get() - outBefore,
        messagesIn.get() - inBefore, latency, jvmA, jvmB);
  }

  /** Node B's GC and JIT counters, asked over the bus outside the measured time. */
  private JvmCounters hostCounters() {
    return JvmCounters.fromJson((JsonObject) vertx.eventBus()
        .request(BenchHostNode.COUNTERS, null).await().body());
  }
}
