package dev.shepherd.bench;

import dev.shepherd.cluster.hosts.HostBatchWriter;
import dev.shepherd.cluster.hosts.HostCodec;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostReport;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The CPU time of writing one batch of 128 echo jobs, built as a tree of {@code JsonObject}s and
 * encoded, or written straight as text by {@link HostBatchWriter}: the measure is this thread's
 * own CPU time, which other work on a shared machine does not inflate the way it does the wall
 * time {@link HostCodecBench} reports. Prints the median of 5 slices of 0.3 s CPU each (after 3
 * of warm-up) and their range.
 *
 * <pre>java -cp target/shepherd.jar dev.shepherd.bench.HostBatchCost</pre>
 */
public final class HostBatchCost {
  private static final int ITEMS = 128;
  private static long sink;

  private HostBatchCost() {}

  public static void main(String[] args) {
    List<HostCommand> assigns = new ArrayList<>();
    List<HostReport> completions = new ArrayList<>();
    JsonObject echo = new JsonObject().put("echo", "hello").put("spinNanos", 0L);
    for (int i = 0; i < ITEMS; i++) {
      String worker = "b/w-" + (i % 4);
      long assignment = (1L << 40) + i;
      assigns.add(new HostCommand.Assign(worker, 1, assignment, "job-" + i, echo, 1, null));
      completions.add(new HostReport.Completion(worker, assignment, echo, null));
    }
    HostCommand.Batch commands = new HostCommand.Batch(0, assigns);
    HostReport.Batch reports = new HostReport.Batch("b", completions);
    Map<String, Supplier<Buffer>> ways = new LinkedHashMap<>();
    ways.put("commands, tree", () -> HostCodec.encode(commands).toBuffer());
    ways.put("commands, writer", () -> HostBatchWriter.write(commands));
    ways.put("reports, tree", () -> HostCodec.encode(reports).toBuffer());
    ways.put("reports, writer", () -> HostBatchWriter.write(reports));
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, List<Double>> micros = new LinkedHashMap<>();
    for (int slice = 0; slice < 8; slice++) {
      for (Map.Entry<String, Supplier<Buffer>> way : ways.entrySet()) {
        long start = threads.getCurrentThreadCpuTime();
        int batches = 0;
        while (threads.getCurrentThreadCpuTime() - start < 300_000_000L) {
          for (int k = 0; k < 100; k++) {
            sink += way.getValue().get().length();
            batches++;
          }
        }
        if (slice >= 3) {
          micros.computeIfAbsent(way.getKey(), k -> new ArrayList<>())
              .add((threads.getCurrentThreadCpuTime() - start) / 1000.0 / batches);
        }
      }
    }
    micros.forEach((way, values) -> {
      Collections.sort(values);
      System.out.printf(Locale.ROOT, "%-17s CPU per batch of %d: median %.1f us (%.1f-%.1f)%n",
          way, ITEMS, values.get(values.size() / 2), values.get(0),
          values.get(values.size() - 1));
    });
    if (sink == 42) {
      System.out.println();
    }
  }
}
