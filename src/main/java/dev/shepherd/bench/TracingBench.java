package dev.shepherd.bench;

import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.PoolVerticle;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.tracing.opentelemetry.OpenTelemetryOptions;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * What tracing costs a job (T1 in docs/rules.md), in one JVM, through the in-JVM {@link
 * PoolClient} with an echo worker: {@code off}, a Vert.x with no tracer (what a pool runs on when
 * tracing is off); {@code on-untraced}, a Vert.x tracing through an SDK (batch processor, an
 * exporter that counts and drops) with jobs submitted outside any trace; {@code on}, the same
 * with each job submitted under its own caller span, so each makes a {@code queued} and an {@code
 * attempt} span. The modes are interleaved round by round after three warm-up rounds, each on its own Vert.x;
 * it prints each measured round, then the median of the rounds per mode and the ratios to {@code off}.
 *
 * <pre>java -cp target/shepherd.jar dev.shepherd.bench.TracingBench --jobs 100000 --rounds 3
 *   (--workers 4 --inflight 64; --quick for a smoke run)</pre>
 */
public final class TracingBench {
  private static final String POOL = "traced-bench";
  private static final List<String> MODES = List.of("off", "on-untraced", "on");
  /** Unmeasured rounds of every mode first, as many jobs each as a measured one. */
  private static final int WARM_UP_ROUNDS = 3;

  private final String mode;
  private final Vertx vertx;
  private final OpenTelemetrySdk sdk;
  private final Tracer caller;
  private final Context driverContext;
  private final PoolClient client;
  private final CountingExporter exporter;

  private TracingBench(String mode, int workers, int inflight) throws Exception {
    this.mode = mode;
    if (mode.equals("off")) {
      sdk = null;
      exporter = null;
      vertx = Vertx.vertx();
      caller = null;
    } else {
      exporter = new CountingExporter();
      sdk = OpenTelemetrySdk.builder()
          .setTracerProvider(SdkTracerProvider.builder()
              .addSpanProcessor(BatchSpanProcessor.builder(exporter).build()).build())
          .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
          .build();
      vertx = Vertx.builder()
          .with(new VertxOptions().setTracingOptions(new OpenTelemetryOptions()))
          .withTracer(new OpenTelemetryTracingFactory(sdk)).build();
      caller = mode.equals("on") ? sdk.getTracer("bench-caller") : null;
    }
    JsonObject pool = new JsonObject()
        .put("name", POOL)
        .put("worker", new JsonObject()
            .put("class", BenchWorker.class.getName())
            .put("instances", workers)
            .put("maxConcurrency", Math.max(1, (inflight + workers - 1) / workers))
            .put("threading", "EVENT_LOOP"))
        .put("backlogCapacity", inflight * 4)
        .put("jobTimeoutMs", 60_000);
    vertx.deployVerticle(new PoolVerticle(), new DeploymentOptions().setConfig(pool)).await();
    client = PoolClient.create(vertx, POOL);
    driverContext = vertx.getOrCreateContext();
  }

  public static void main(String[] args) throws Exception {
    int workers = 4;
    int inflight = 64;
    int jobs = 100_000;
    int rounds = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--workers" -> workers = Integer.parseInt(args[++i]);
        case "--inflight" -> inflight = Integer.parseInt(args[++i]);
        case "--jobs" -> jobs = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--quick" -> {
          jobs = 5_000;
          rounds = 1;
        }
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (use --workers N --inflight N --jobs N --rounds N | --quick)");
      }
    }
    Map<String, TracingBench> benches = new LinkedHashMap<>();
    for (String mode : MODES) {
      benches.put(mode, new TracingBench(mode, workers, inflight));
    }
    System.out.printf(Locale.ROOT, "TracingBench workers=%d inflight=%d jobs=%d rounds=%d%n",
        workers, inflight, jobs, rounds);
    for (int warm = 0; warm < WARM_UP_ROUNDS; warm++) {
      for (TracingBench bench : benches.values()) {
        bench.measure(jobs, inflight); // the JIT settles over the first rounds of each mode
      }
    }
    Map<String, List<Sample>> samples = new LinkedHashMap<>();
    for (int round = 1; round <= rounds; round++) {
      for (TracingBench bench : benches.values()) {
        Sample sample = bench.measure(jobs, inflight);
        samples.computeIfAbsent(bench.mode, m -> new ArrayList<>()).add(sample);
        System.out.printf(Locale.ROOT,
            "round %d %-12s %9.0f jobs/s %7.2f us/job wall %7.2f us/job cpu p50 %6d us%n",
            round, bench.mode, sample.rate(), sample.wallMicrosPerJob(),
            sample.cpuMicrosPerJob(), sample.p50Micros());
      }
    }
    double offWall = median(samples.get("off"), Sample::wallMicrosPerJob);
    double offCpu = median(samples.get("off"), Sample::cpuMicrosPerJob);
    StringBuilder ratios = new StringBuilder("ratios to off (median of rounds):");
    for (String mode : MODES) {
      double wall = median(samples.get(mode), Sample::wallMicrosPerJob);
      double cpu = median(samples.get(mode), Sample::cpuMicrosPerJob);
      System.out.printf(Locale.ROOT,
          "median %-12s %9.0f jobs/s %7.2f us/job wall %7.2f us/job cpu%n",
          mode, median(samples.get(mode), Sample::rate), wall, cpu);
      ratios.append(String.format(Locale.ROOT, " %s wall=%.2f cpu=%.2f (+%.2f us cpu/job)",
          mode, wall / offWall, cpu / offCpu, cpu - offCpu));
    }
    System.out.println(ratios);
    for (TracingBench bench : benches.values()) {
      bench.close();
      if (bench.exporter != null) {
        System.out.printf(Locale.ROOT, "%s exported %d spans%n", bench.mode,
            bench.exporter.count.get());
      }
    }
  }

  private Sample measure(int count, int window) {
    Driver.Run run = Driver.measure(driverContext, this::submit, count, window, mode + " jobs");
    return new Sample(run.count(), run.elapsedNanos(), run.cpuNanos(), run.latency());
  }

  /** One job: under its own caller span in mode {@code on}, outside any trace otherwise. */
  private Future<?> submit() {
    JsonObject payload = new JsonObject().put("n", 1);
    if (caller == null) {
      return client.submit(payload);
    }
    Span span = caller.spanBuilder("caller").startSpan();
    try (Scope scope = span.makeCurrent()) {
      return client.submit(payload).onComplete(ar -> span.end());
    }
  }

  private void close() throws Exception {
    vertx.close().await();
    if (sdk != null) {
      sdk.shutdown().join(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  private static double median(List<Sample> samples,
      java.util.function.ToDoubleFunction<Sample> figure) {
    double[] values = samples.stream().mapToDouble(figure).sorted().toArray();
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  private record Sample(int count, long elapsedNanos, long cpuNanos, Histogram latency) {
    double rate() {
      return count * 1e9 / elapsedNanos;
    }

    double wallMicrosPerJob() {
      return elapsedNanos / 1e3 / count;
    }

    double cpuMicrosPerJob() {
      return cpuNanos / 1e3 / count;
    }

    long p50Micros() {
      return latency.getValueAtPercentile(50); // Driver records microseconds
    }
  }

  /** An exporter that counts the spans it is handed and drops them. */
  private static final class CountingExporter implements SpanExporter {
    final AtomicLong count = new AtomicLong();

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
      count.addAndGet(spans.size());
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
