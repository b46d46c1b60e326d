package dev.shepherd.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the test classpath running in a child JVM, its output captured in files (so a
 * chatty child never blocks on a full pipe). {@link #terminate()} sends SIGTERM.
 */
public final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private ChildJvm(Process process, Path stdout, Path stderr) {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** The {@code java} launcher of the JVM running the tests. */
  public static Path currentJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /**
   * A JDK of version 21 or newer: {@code JAVA21_HOME} if set, else the Temurin 25 of these
   * machines; empty when neither is there.
   */
  public static Optional<Path> java21OrNewer() {
    List<Path> candidates = new ArrayList<>();
    String env = System.getenv("JAVA21_HOME");
    if (env != null && !env.isBlank()) {
      candidates.add(Path.of(env));
    }
    candidates.add(Path.of("/usr/lib/jvm/temurin-25-jdk-amd64"));
    for (Path home : candidates) {
      Path java = home.resolve("bin").resolve("java");
      if (Files.isExecutable(java) && featureVersion(home) >= 21) {
        return Optional.of(java);
      }
    }
    return Optional.empty();
  }

  /** The feature version in a JDK's {@code release} file, or 0 when unreadable. */
  static int featureVersion(Path home) {
    Properties release = new Properties();
    try (var in = Files.newInputStream(home.resolve("release"))) {
      release.load(in);
    } catch (IOException e) {
      return 0;
    }
    String version = release.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
    try {
      return Integer.parseInt(version.split("[.+-]")[0]);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Starts {@code main} with the test classpath under the given {@code java}. */
  public static ChildJvm start(Path java, Class<?> main, String... args) {
    return start(java, List.of(), main, args);
  }

  /** The same with more JVM options (system properties, say) after the defaults. */
  public static ChildJvm start(Path java, List<String> jvmOptions, Class<?> main,
      String... args) {
    return start(java, Map.of(), jvmOptions, main, args);
  }

  /** The same with {@code env} added to this JVM's environment. */
  public static ChildJvm start(Path java, Map<String, String> env, List<String> jvmOptions,
      Class<?> main, String... args) {
    try {
      Path dir = Files.createTempDirectory("shepherd-child");
      Path out = dir.resolve("stdout.txt");
      Path err = dir.resolve("stderr.txt");
      List<String> command = new ArrayList<>(List.of(java.toString(),
          "-Xmx256m", "-XX:TieredStopAtLevel=1"));
      command.addAll(jvmOptions);
      command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
      command.addAll(List.of(args));
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectOutput(out.toFile())
          .redirectError(err.toFile());
      builder.environment().putAll(env);
      Process process = builder.start();
      return new ChildJvm(process, out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for the exit; a child still running after {@code limit} is killed and fails the test. */
  public int waitFor(Duration limit) {
    try {
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the child JVM did not exit within " + limit + "\nstdout:\n"
            + stdout() + "\nstderr:\n" + stderr());
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** SIGTERM, as a service manager stops the application. */
  public void terminate() {
    process.destroy();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public String stdout() {
    return read(stdout);
  }

  public String stderr() {
    return read(stderr);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "<unreadable: " + e + ">";
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
