package dev.shepherd.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A cluster node the benchmarks start in a process of its own, its output in a file (so a chatty
 * node never blocks on a pipe). Its CPU time is read from the operating system, so a benchmark can
 * count both JVMs' work per job. {@link #kill()} is {@code kill -9}; a JVM shutdown hook kills
 * every node still running when the benchmark itself ends.
 */
final class ChildNode implements AutoCloseable {
  private static final Set<ChildNode> RUNNING = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(ChildNode::close),
        "bench-children-cleanup"));
  }

  /** What the shaded jar's manifest opens for Hazelcast; a class-path start needs them given. */
  static final List<String> OPENS = List.of(
      "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.management/sun.management=ALL-UNNAMED",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
      "--add-opens", "java.base/java.nio=ALL-UNNAMED",
      "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

  private final String name;
  private final Process process;
  private final Path output;

  private ChildNode(String name, Process process, Path output) {
    this.name = name;
    this.process = process;
    this.output = output;
  }

  /** Starts {@code command} with {@code env} added to this JVM's environment. */
  static ChildNode start(String name, List<String> command, Map<String, String> env) {
    try {
      Path output = Files.createTempFile("shepherd-bench-" + name + "-", ".log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(output.toFile());
      builder.environment().putAll(env);
      builder.environment().put("HZ_PHONE_HOME_ENABLED", "false");
      ChildNode node = new ChildNode(name, builder.start(), output);
      RUNNING.add(node);
      return node;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Extra JVM options for every child node, separated by spaces (a profiler's agent, GC logging):
   * the child gets none of this JVM's agents or recordings otherwise.
   */
  static final String CHILD_JVM_OPTIONS = "shepherd.bench.childJvmOptions";

  /**
   * The command that runs {@code mainClass} from this JVM's class path under this JVM's Java,
   * with this JVM's heap and GC options (so both sides of a benchmark run alike), without its
   * agents or flight recordings, plus the options of {@value #CHILD_JVM_OPTIONS}.
   */
  static List<String> javaCommand(String mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (option.startsWith("-Xm") || option.startsWith("-XX:+Use")
          || option.startsWith("-XX:TieredStopAtLevel") || option.startsWith("-Xss")) {
        command.add(option);
      }
    }
    String extra = System.getProperty(CHILD_JVM_OPTIONS, "").trim();
    if (!extra.isEmpty()) {
      command.addAll(List.of(extra.split("\\s+")));
    }
    command.addAll(OPENS);
    command.add("-Dhazelcast.logging.type=slf4j");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(List.of(args));
    return command;
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  /** CPU time the process has used so far (all its threads), in nanoseconds. */
  long cpuNanos() {
    return process.toHandle().info().totalCpuDuration().map(Duration::toNanos)
        .orElseThrow(() -> new IllegalStateException("no CPU time readable for " + this));
  }

  /** Waits until a line of the node's output contains {@code text}; fails if it exits first. */
  void awaitLine(String text, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      if (output().contains(text)) {
        return;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited with status " + process.exitValue()
            + " before printing \"" + text + "\":\n" + output());
      }
      sleep(20);
    }
    throw new IllegalStateException(name + " did not print \"" + text + "\" within " + limit
        + ":\n" + output());
  }

  String output() {
    try {
      return Files.readString(output, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "<unreadable: " + e + ">";
    }
  }

  /** {@code kill -9}, then waits for the process to be gone. */
  void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    RUNNING.remove(this);
  }

  /** Ends the node if it still runs, and removes its output file. */
  @Override
  public void close() {
    kill();
    try {
      Files.deleteIfExists(output);
    } catch (IOException e) {
      // a temporary file: nothing else to do
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return name + "(pid " + pid() + ")";
  }
}
