package dev.shepherd.bench;

import dev.shepherd.cluster.hosts.HostBatchWriter;
import dev.shepherd.cluster.hosts.HostCodec;
import dev.shepherd.cluster.hosts.HostCommand;
import dev.shepherd.cluster.hosts.HostReport;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the worker-host protocol's batches cost to write and to read, per batch of {@code items}
 * echo jobs ({@link ClusterBench}'s job): the coordinator writes assignments and reads
 * completions, a host the other way round. {@code tree} builds a {@code JsonObject} per item and
 * lets Vert.x encode it, as the bus would for a JSON body; {@code writer} is {@link
 * HostBatchWriter}, what nodes send; {@code read} is {@link HostCodec}'s parse and check of such
 * a buffer, {@code parse} the parse alone.
 *
 * <pre>java -cp target/shepherd.jar org.openjdk.jmh.Main HostCodecBench -f 1 -wi 3 -i 5 -w 1s -r 1s</pre>
 */
@State(Scope.Thread)
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HostCodecBench {
  @Param({"1", "128"})
  int items;

  private HostCommand.Batch commands;
  private HostReport.Batch reports;
  private Buffer commandText;
  private Buffer reportText;

  @Setup
  public void setUp() {
    List<HostCommand> assigns = new ArrayList<>();
    List<HostReport> completions = new ArrayList<>();
    JsonObject echo = new JsonObject().put("echo", "hello").put("spinNanos", 0L);
    for (int i = 0; i < items; i++) {
      String worker = "b/w-" + (i % 4);
      long assignment = (1L << 40) + i;
      assigns.add(new HostCommand.Assign(worker, 1, assignment, "job-" + i, echo, 1, null));
      completions.add(new HostReport.Completion(worker, assignment, echo, null));
    }
    commands = new HostCommand.Batch(0, assigns);
    reports = new HostReport.Batch("b", completions);
    commandText = HostBatchWriter.write(commands);
    reportText = HostBatchWriter.write(reports);
  }

  @Benchmark
  public Buffer commandsTree() {
    return HostCodec.encode(commands).toBuffer();
  }

  @Benchmark
  public Buffer commandsWriter() {
    return HostBatchWriter.write(commands);
  }

  @Benchmark
  public JsonObject commandsParse() {
    return new JsonObject(commandText);
  }

  @Benchmark
  public HostCommand.Batch commandsRead() {
    return HostCodec.decodeCommands(commandText);
  }

  @Benchmark
  public Buffer reportsTree() {
    return HostCodec.encode(reports).toBuffer();
  }

  @Benchmark
  public Buffer reportsWriter() {
    return HostBatchWriter.write(reports);
  }

  @Benchmark
  public JsonObject reportsParse() {
    return new JsonObject(reportText);
  }

  @Benchmark
  public HostReport.Batch reportsRead() {
    return HostCodec.decodeReports(reportText);
  }
}
