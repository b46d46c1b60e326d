package dev.shepherd.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * A cluster node in a child JVM on loopback, started with the test classpath and the {@code
 * SHEPHERD_CLUSTER_*} environment of the test's own cluster; its output goes to files. It can be
 * killed ({@code SIGKILL}), paused ({@code SIGSTOP}) and resumed ({@code SIGCONT}); {@link
 * #close()} kills it, and a shutdown hook kills whatever a failed test left running.
 */
final class ClusterNode implements AutoCloseable {
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly)));
  }

  private final String name;
  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private ClusterNode(String name, Process process, Path stdout, Path stderr) {
    this.name = name;
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts {@code main} with {@code args} as a member of cluster {@code cluster}. */
  static ClusterNode start(String name, String cluster, int basePort, Class<?> main,
      String... args) {
    try {
      Path dir = Files.createTempDirectory("shepherd-node-" + name);
      Path out = dir.resolve("stdout.txt");
      Path err = dir.resolve("stderr.txt");
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx160m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
          "--add-opens", "java.base/java.lang=ALL-UNNAMED",
          "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens", "java.base/java.nio=ALL-UNNAMED",
          "--add-opens", "java.management/sun.management=ALL-UNNAMED",
          "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
          "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
          "-Dhazelcast.phone.home.enabled=false",
          "-cp", System.getProperty("java.class.path"), main.getName()));
      command.addAll(List.of(args));
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectOutput(out.toFile()).redirectError(err.toFile());
      Map<String, String> env = builder.environment();
      env.put(ClusterSettings.NAME, cluster);
      env.put(ClusterSettings.PORT, String.valueOf(basePort));
      env.put(ClusterSettings.MEMBERS, "127.0.0.1");
      env.put(ClusterSettings.HOST, "127.0.0.1");
      env.put("HZ_PHONE_HOME_ENABLED", "false");
      Process process = builder.start();
      LIVE.add(process);
      return new ClusterNode(name, process, out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for an output line starting with {@code prefix}; returns the rest of it. */
  String awaitLine(String prefix, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      for (String line : stdout().split("\n")) {
        if (line.startsWith(prefix)) {
          return line.substring(prefix.length()).trim();
        }
      }
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited with " + process.exitValue() + " before "
            + prefix + "\n" + output());
      }
      sleep(50);
    }
    throw new AssertionError(name + " printed no " + prefix + " within " + limit + "\n"
        + output());
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** SIGKILL, and waits for the process to be gone. */
  void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LIVE.remove(process);
  }

  /** SIGSTOP: the JVM hangs as a whole, sockets open. */
  void pause() {
    signal("-STOP");
  }

  /** SIGCONT. */
  void resume() {
    signal("-CONT");
  }

  private void signal(String signal) {
    try {
      Process kill = new ProcessBuilder("kill", signal, String.valueOf(process.pid()))
          .redirectErrorStream(true).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill " + signal + " " + process.pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  String stdout() {
    return read(stdout);
  }

  String output() {
    return "--- " + name + " stdout:\n" + stdout() + "\n--- " + name + " stderr:\n"
        + read(stderr);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "<unreadable: " + e + ">";
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
    LIVE.remove(process);
  }
}
