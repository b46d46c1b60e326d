package dev.shepherd.bench;

import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolVerticle;
import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * End-to-end load generator. In one run, interleaved round by round after a warm-up, it measures
 * (a) raw event-bus request/reply to {@code workers} consumers on one address, (b) the pool
 * through the event-bus protocol, (c) the pool through the in-JVM {@link PoolClient}, (d) a plain
 * {@link ThreadPoolExecutor} of {@code workers} threads on one queue, each job a {@link
 * CompletableFuture} completed on the worker thread and handed back to the driver's context (the
 * executor limit an in-JVM pool is measured against); for an echo job and a ~20 µs CPU job, at
 * {@code inflight} jobs in flight and at one. For each it prints jobs/s, latency percentiles and
 * CPU per job, then ratio lines per job kind, all from the same run.
 *
 * <p>It prints what else runs on the driver's event loop: with Vert.x's default loops, one raw
 * consumer and one incarnation do, so a quarter of raw requests cross no thread.
 * {@code --ownDriverLoop} gives the driver a loop of its own ({@link DriverLoop}).
 *
 * <pre>java -cp target/shepherd.jar dev.shepherd.bench.LoadBench --workers 4 --inflight 256 \
 *   --jobs 1000000   (or --quick; --modes client to profile one mode; --kinds echo;
 *   --ownDriverLoop --eventLoops 12)</pre>
 */
public final class LoadBench {
  static final String RAW = "bench.raw";
  private static final String POOL = "bench";
  private static final int ROUNDS = 5;
  /** The modes measured at one job in flight as well. */
  private static final List<String> ALL_MODES = List.of("raw", "bus", "client", "tpe");

  private final Vertx vertx;
  private final int workers;
  private final int inflight;
  private final int jobs;
  private Context driverContext;
  /** Whether the driver runs on an event loop of its own ({@code --ownDriverLoop}). */
  private final boolean ownDriverLoop;
  private PoolClient client;
  /** The plain executor baseline ({@code tpe}): {@code workers} threads, one queue. */
  private ThreadPoolExecutor executor;

  private final List<String> modes;

  /** Fields merged into the pool's configuration ({@code --pool '<json>'}), to compare settings. */
  private final JsonObject poolExtra;

  private LoadBench(Vertx vertx, int workers, int inflight, int jobs, List<String> modes,
      JsonObject poolExtra, boolean ownDriverLoop) {
    this.ownDriverLoop = ownDriverLoop;
    this.modes = modes;
    this.poolExtra = poolExtra;
    this.vertx = vertx;
    this.workers = workers;
    this.inflight = inflight;
    this.jobs = jobs;
    this.driverContext = vertx.getOrCreateContext();
  }

  public static void main(String[] args) throws Exception {
    int workers = 4;
    int inflight = 256;
    int jobs = 200_000;
    List<String> modes = ALL_MODES;
    List<String> kindNames = List.of("echo", "cpu20us");
    JsonObject poolExtra = new JsonObject();
    Integer eventLoops = null;
    boolean ownDriverLoop = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--workers" -> workers = Integer.parseInt(args[++i]);
        case "--inflight" -> inflight = Integer.parseInt(args[++i]);
        case "--jobs" -> jobs = Integer.parseInt(args[++i]);
        case "--quick" -> jobs = 20_000;
        case "--modes" -> modes = List.of(args[++i].split(","));
        case "--kinds" -> kindNames = List.of(args[++i].split(","));
        case "--pool" -> poolExtra = new JsonObject(args[++i]);
        case "--eventLoops" -> eventLoops = Integer.parseInt(args[++i]);
        case "--ownDriverLoop" -> ownDriverLoop = true;
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (use --workers N --inflight N --jobs N | --quick, --modes raw,bus,client,tpe,"
            + " --kinds echo,cpu20us,"
            + " --pool '<json merged into the pool's configuration>',"
            + " --eventLoops N (Vert.x's event loops; its default is twice the cores),"
            + " --ownDriverLoop (the driver on an event loop nothing else uses; 32 loops unless"
            + " --eventLoops says))");
      }
    }
    int loops = eventLoops != null ? eventLoops
        : ownDriverLoop ? 32 : new VertxOptions().getEventLoopPoolSize();
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
    try {
      new LoadBench(vertx, workers, inflight, jobs, modes, poolExtra, ownDriverLoop)
          .run(kindNames);
    } finally {
      vertx.close().await();
    }
  }

  private void run(List<String> kindNames) throws Exception {
    deploy();
    System.out.printf(Locale.ROOT, "LoadBench: %d workers, %d in flight, %d jobs per mode and kind,"
        + " %d cores, Java %s%n", workers, inflight, jobs,
        Runtime.getRuntime().availableProcessors(), Runtime.version());
    if (ownDriverLoop) {
      Context own = DriverLoop.own(vertx);
      if (own == null) {
        throw new IllegalStateException("--ownDriverLoop: every event loop runs a deployment;"
            + " give --eventLoops more");
      }
      driverContext = own;
    }
    List<String> sharing = DriverLoop.sharedWith(vertx, driverContext);
    System.out.println("the driver's event loop also runs: "
        + (sharing.isEmpty() ? "nothing else" : String.join(", ", sharing)));
    Map<String, Long> kinds = new LinkedHashMap<>();
    if (kindNames.contains("echo")) {
      kinds.put("echo", 0L);
    }
    if (kindNames.contains("cpu20us")) {
      kinds.put("cpu20us", 20_000L);
    }
    for (Map.Entry<String, Long> kind : kinds.entrySet()) {
      JsonObject payload = new JsonObject().put("echo", "hello").put("spinNanos", kind.getValue());
      Map<String, Result> results = new LinkedHashMap<>();
      for (String mode : modes) {
        measure(mode, payload, Math.max(1000, jobs / 10), inflight);
        results.put(mode, new Result());
      }
      for (int round = 0; round < ROUNDS; round++) {
        for (String mode : modes) {
          results.get(mode).add(measure(mode, payload, jobs / ROUNDS, inflight));
        }
      }
      Map<String, Result> single = new LinkedHashMap<>();
      boolean alsoOne = inflight > 1;
      for (String mode : alsoOne ? modes : List.<String>of()) {
        single.put(mode, new Result());
      }
      for (int round = 0; alsoOne && round < ROUNDS; round++) {
        for (String mode : modes) {
          single.get(mode).add(measure(mode, payload, Math.max(200, jobs / 100), 1));
        }
      }
      for (Map.Entry<String, Result> r : results.entrySet()) {
        System.out.println(r.getValue().line(kind.getKey(), r.getKey(), inflight));
      }
      for (Map.Entry<String, Result> r : single.entrySet()) {
        System.out.println(r.getValue().line(kind.getKey(), r.getKey(), 1));
      }
      ratios(kind.getKey(), results, inflight > 1 ? single : results);
    }
  }

  /**
   * The ratios of one kind, each between two modes of this run: throughput at the run's in-flight
   * count, and p50 and CPU per job at one in flight ({@code one}, which is {@code results} itself
   * for a run at one in flight).
   */
  private static void ratios(String kind, Map<String, Result> results, Map<String, Result> one) {
    StringBuilder line = new StringBuilder(kind).append(": ratio");
    ratio(line, "bus/raw", results, "bus", "raw", Result::rate);
    ratio(line, "client/raw", results, "client", "raw", Result::rate);
    ratio(line, "client/tpe", results, "client", "tpe", Result::rate);
    line.append(" | 1 in flight:");
    ratio(line, "p50 client/raw", one, "client", "raw", Result::p50);
    ratio(line, "p50 bus/raw", one, "bus", "raw", Result::p50);
    ratio(line, "cpu client/raw", one, "client", "raw", Result::cpuPerJob);
    ratio(line, "cpu bus/raw", one, "bus", "raw", Result::cpuPerJob);
    System.out.println(line);
  }

  private static void ratio(StringBuilder line, String name, Map<String, Result> results,
      String a, String b, java.util.function.ToDoubleFunction<Result> figure) {
    if (results.containsKey(a) && results.containsKey(b)) {
      line.append(String.format(Locale.ROOT, " %s=%.2f", name,
          figure.applyAsDouble(results.get(a)) / figure.applyAsDouble(results.get(b))));
    }
  }

  private void deploy() throws Exception {
    for (int i = 0; i < workers; i++) {
      vertx.deployVerticle(new RawConsumer()).await();
    }
    JsonObject pool = new JsonObject()
        .put("name", POOL)
        .put("worker", new JsonObject()
            .put("class", BenchWorker.class.getName())
            .put("instances", workers)
            .put("maxConcurrency", Math.max(1, (inflight + workers - 1) / workers))
            .put("threading", "EVENT_LOOP"))
        .put("backlogCapacity", inflight * 4)
        .put("jobTimeoutMs", 60_000)
        .mergeIn(poolExtra, true);
    vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(pool)).await();
    client = PoolClient.create(vertx, POOL);
    executor = new ThreadPoolExecutor(workers, workers, 0L, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(Math.max(1024, inflight * 4)), runnable -> {
          Thread thread = new Thread(runnable, "bench-tpe");
          thread.setDaemon(true);
          return thread;
        });
    executor.prestartAllCoreThreads();
    Thread.sleep(500);
  }

  private Sample measure(String mode, JsonObject payload, int count, int window) throws Exception {
    DeliveryOptions options = new DeliveryOptions().setSendTimeout(60_000);
    JsonObject body = new JsonObject().put("payload", payload);
    Driver.Run run = Driver.measure(driverContext, () -> switch (mode) {
      case "raw" -> vertx.eventBus().request(RAW, body, options);
      case "bus" -> vertx.eventBus().request("shepherd." + POOL + ".submit", body, options);
      case "client" -> client.submit(payload);
      case "tpe" -> Future.fromCompletionStage(
          CompletableFuture.supplyAsync(() -> work(payload), executor), driverContext);
      default -> throw new IllegalArgumentException(mode);
    }, count, window,
        mode + " requests");
    return new Sample(run.count(), run.elapsedNanos(), run.cpuNanos(), run.latency());
  }

  /** What every worker does: {@link BenchWorker}'s echo after its spin. */
  private static Object work(JsonObject payload) {
    long spin = payload.getLong("spinNanos", 0L);
    if (spin > 0) {
      Spin.nanos(spin);
    }
    return payload;
  }

  private record Sample(int count, long elapsedNanos, long cpuNanos, Histogram latency) {}

  private static final class Result {
    final Histogram latency = new Histogram(60_000_000L, 3);
    final List<Sample> samples = new ArrayList<>();

    void add(Sample sample) {
      samples.add(sample);
      latency.add(sample.latency());
    }

    double rate() {
      long count = samples.stream().mapToLong(Sample::count).sum();
      long nanos = samples.stream().mapToLong(Sample::elapsedNanos).sum();
      return count * 1e9 / nanos;
    }

    double p50() {
      return latency.getValueAtPercentile(50);
    }

    double cpuPerJob() {
      long count = samples.stream().mapToLong(Sample::count).sum();
      return samples.stream().mapToLong(Sample::cpuNanos).sum() / (double) count;
    }

    String line(String kind, String mode, int window) {
      long count = samples.stream().mapToLong(Sample::count).sum();
      long cpu = samples.stream().mapToLong(Sample::cpuNanos).sum();
      return String.format(Locale.ROOT,
          "%-8s %-7s inflight=%-4d %10.0f jobs/s  p50=%6d us  p99=%6d us  p99.9=%6d us"
              + "  cpu=%6.1f us/job", kind, mode, window, rate(),
          latency.getValueAtPercentile(50), latency.getValueAtPercentile(99),
          latency.getValueAtPercentile(99.9), cpu / 1000.0 / count);
    }
  }

  /** A raw event-bus consumer doing the same work as {@link BenchWorker}. */
  public static final class RawConsumer extends AbstractVerticle {
    @Override
    public void start() {
      vertx.eventBus().<JsonObject>consumer(RAW, message -> {
        JsonObject payload = message.body().getJsonObject("payload");
        long spin = payload.getLong("spinNanos", 0L);
        if (spin > 0) {
          Spin.nanos(spin);
        }
        message.reply(payload);
      });
    }
  }
}
