package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.shepherd.FileTrees;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The live view's pure modules ({@code webroot/js}: the model and its reducer, rates, chart maths,
 * log lines, tile words and host groups) under Node's built-in test runner, {@code node --test
 * src/test/js/}, so that {@code mvn verify} runs them. They run from a copy under {@code
 * target/node-tests} beside a {@code package.json} that declares ES modules, because the page's
 * modules are plain {@code .js} files (what a browser loads) and Node before 20.19 would read
 * them as CommonJS. Skipped, saying why, when no Node 18.19 or newer is installed ({@code
 * -Dshepherd.node=<path>} names one off the PATH).
 */
class LiveViewNodeTest {
  private static final Path TESTS = Path.of("src", "test", "js");
  private static final Path WEBROOT = Path.of("webroot");
  private static final Path COPY = Path.of("target", "node-tests");
  private static final Path OUTPUT = Path.of("target", "node-test.log");
  private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.(\\d+)\\.");
  private static final Pattern COUNT = Pattern.compile("(?m)^\\S*\\s*(tests|pass|fail) (\\d+)$");

  @Test
  void live_view_model_unit_tests_pass_under_node() throws Exception {
    Optional<String> node = findNode();
    assumeTrue(node.isPresent(), "the live view's unit tests need Node.js 18.19 or newer on the"
        + " PATH (or -Dshepherd.node=<path>): apt-get install -y nodejs");
    int[] version = version(node.get());
    assumeTrue(version[0] > 18 || version[0] == 18 && version[1] >= 19,
        "the live view's unit tests need Node.js 18.19 or newer; " + node.get() + " is v"
            + version[0] + "." + version[1]);
    assertThat(TESTS).isDirectory();
    assertThat(WEBROOT).isDirectory();

    FileTrees.delete(COPY);
    FileTrees.copy(WEBROOT, COPY.resolve(WEBROOT));
    FileTrees.copy(TESTS, COPY.resolve(TESTS));
    Files.writeString(COPY.resolve("package.json"),
        "{\"private\": true, \"type\": \"module\"}\n", StandardCharsets.UTF_8);
    List<String> command = List.of(node.get(), "--test", "--test-reporter=spec",
        TESTS + File.separator);
    Files.createDirectories(OUTPUT.getParent());
    ProcessBuilder builder = new ProcessBuilder(command).directory(COPY.toFile())
        .redirectErrorStream(true).redirectOutput(OUTPUT.toAbsolutePath().toFile());
    builder.environment().remove("NODE_OPTIONS");
    builder.environment().remove("FORCE_COLOR");
    builder.environment().put("NO_COLOR", "1");
    Process process = builder.start();
    if (!process.waitFor(120, SECONDS)) {
      process.destroyForcibly().waitFor(10, SECONDS);
      fail("node --test did not finish within 120 s; its output so far:%n%s", output());
    }
    String output = output();
    if (process.exitValue() != 0) {
      fail("node --test %s (in %s) failed (exit %d):%n%s", TESTS, COPY, process.exitValue(),
          output);
    }
    Matcher counts = COUNT.matcher(output);
    int tests = -1;
    int failed = -1;
    while (counts.find()) {
      switch (counts.group(1)) {
        case "tests" -> tests = Integer.parseInt(counts.group(2));
        case "fail" -> failed = Integer.parseInt(counts.group(2));
        default -> { }
      }
    }
    assertThat(tests).as("tests node ran, in:%n%s", output).isPositive();
    assertThat(failed).as("failed tests, in:%n%s", output).isZero();
  }

  private static String output() throws IOException {
    return Files.readString(OUTPUT, StandardCharsets.UTF_8);
  }

  private static Optional<String> findNode() {
    String given = System.getProperty("shepherd.node");
    if (given != null) {
      return Optional.of(given).filter(p -> new File(p).canExecute());
    }
    String path = System.getenv().getOrDefault("PATH", "");
    return Stream.concat(Stream.of(path.split(File.pathSeparator)), Stream.of("/usr/bin"))
        .filter(dir -> !dir.isEmpty())
        .map(dir -> new File(dir, "node"))
        .filter(File::canExecute)
        .map(File::getPath)
        .findFirst();
  }

  private static int[] version(String node) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(node, "--version").redirectErrorStream(true).start();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor(10, SECONDS);
    Matcher m = VERSION.matcher(text.trim());
    assumeTrue(m.lookingAt(), node + " --version said '" + text.trim() + "', not a Node version");
    return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
  }
}
