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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Shepherd node in a process of its own, started through {@code docker/entrypoint.sh} (what
 * the compose file runs), its output in files so a chatty node never blocks on a pipe. The
 * entrypoint execs the JVM, so {@link #pid()} is the JVM's: faults are signals to it ({@link
 * #kill()} is {@code kill -9}, {@link #pause()} / {@link #resume()} are {@code -STOP} / {@code
 * -CONT}). {@link #close()} always ends it.
 */
final class ClusterNode implements AutoCloseable {
  /** What a node prints once its pools, hosts and HTTP server are up. */
  static final String READY = "Shepherd node ready";
  private static final Pattern READY_HTTP = Pattern.compile(READY + ".* http [^ :]+:(\\d+)");

  static final Path ENTRYPOINT = Path.of("docker", "entrypoint.sh").toAbsolutePath();

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

  /**
   * Starts the entrypoint with {@code env} added to this JVM's environment, behind {@code
   * wrapper} (e.g. {@code ip netns exec ns1}) when it is not empty.
   */
  static ClusterNode start(String name, Path dir, Map<String, String> env, List<String> wrapper) {
    try {
      Path out = dir.resolve(name + ".out");
      Path err = dir.resolve(name + ".err");
      List<String> command = new ArrayList<>(wrapper);
      command.add(ENTRYPOINT.toString());
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectOutput(out.toFile())
          .redirectError(err.toFile());
      builder.environment().putAll(env);
      return new ClusterNode(name, builder.start(), out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits until a line of the node's output contains {@code text}; fails at once, with the
   * output, if the node exits first.
   */
  void awaitLine(String text, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      if (output().lines().anyMatch(line -> line.contains(text))) {
        return;
      }
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited with status " + process.exitValue()
            + " before printing \"" + text + "\"\n" + output());
      }
      sleep(50);
    }
    throw new AssertionError(name + " did not print \"" + text + "\" within " + limit + "\n"
        + output());
  }

  /**
   * The HTTP port the node bound, read from its ready line ({@code http 127.0.0.1:PORT}): a node
   * configured with port 0 binds a free one itself, so no other process can take it first.
   */
  int httpPort(Duration limit) {
    awaitLine(READY, limit);
    Matcher port = READY_HTTP.matcher(output());
    if (!port.find()) {
      throw new AssertionError(name + "'s ready line names no HTTP port\n" + output());
    }
    return Integer.parseInt(port.group(1));
  }

  /** {@code kill -9}: the JVM dies at once, its sockets are closed by the kernel. */
  void kill() {
    process.destroyForcibly();
    waitFor(Duration.ofSeconds(10));
  }

  /** {@code kill -STOP}: the JVM hangs, its sockets stay open. */
  void pause() {
    signal("STOP");
  }

  /** {@code kill -CONT}. */
  void resume() {
    signal("CONT");
  }

  /** SIGTERM: a graceful stop. */
  void terminate() {
    process.destroy();
  }

  /** The exit status; fails if the node is still running after {@code limit}. */
  int waitFor(Duration limit) {
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError(name + " did not exit within " + limit + "\n" + output());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  String stdout() {
    return read(stdout);
  }

  String stderr() {
    return read(stderr);
  }

  /** Everything the node printed: its standard output, then its standard error. */
  String output() {
    return stdout() + stderr();
  }

  private void signal(String signal) {
    try {
      int status = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid()))
          .inheritIO().start().waitFor();
      if (status != 0) {
        throw new AssertionError("kill -" + signal + " " + pid() + " failed: " + status);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "<unreadable: " + e + ">";
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Ends the node if it still runs (a paused one too: SIGKILL needs no CONT). */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public String toString() {
    return name + "(pid " + pid() + ")";
  }
}
