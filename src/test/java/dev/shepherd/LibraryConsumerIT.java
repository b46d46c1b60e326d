package dev.shepherd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library as a Vert.x application uses it: the project under {@code src/it/consumer}
 * (docs/library.md's "Use it in your project", file for file) is built by a nested Maven against
 * the jar and pom this build just packaged, offline, and run; its one job must come back
 * completed.
 *
 * <p>The nested Maven never writes to this build's local repository: the library is placed in a
 * repository of its own under {@code target/consumer-it}, and every other artifact is read from
 * this build's local repository ({@code -Dmaven.repo.local} respected) through a {@code file:}
 * mirror, which Maven's offline mode allows with {@code aether.offline.protocols=file}. Anything
 * the consumer needs beyond this build's own dependencies must be fetched beforehand (see {@code
 * .ci/run}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LibraryConsumerIT {
  private static final String MAIN_CLASS = "com.example.HelloPool";

  private static Path base;
  private static Path libraryJar;
  private static Path work;

  @BeforeAll
  static void locateBuild() {
    base = Path.of(property("basedir")); // set by Maven's test plugins
    libraryJar = Path.of(property("shepherd.library.jar"));
    work = base.resolve("target").resolve("consumer-it");
    assertThat(libraryJar).as("the library jar of this build").isRegularFile();
  }

  @Test
  void the_library_guide_shows_the_consumer_project_file_for_file() throws IOException {
    String guide = normalize(Files.readString(base.resolve("docs/library.md")));
    Path consumer = base.resolve("src/it/consumer");

    assertThat(guide).contains(normalize(Files.readString(consumer.resolve("pom.xml"))));
    assertThat(guide).contains(normalize(Files.readString(
        consumer.resolve("src/main/java/com/example/HelloPool.java"))));
  }

  @Test
  void library_jar_holds_no_configuration_of_its_users_and_no_other_library() throws IOException {
    try (JarFile jar = new JarFile(libraryJar.toFile())) {
      List<String> names = jar.stream().map(ZipEntry::getName).toList();

      assertThat(names).contains("dev/shepherd/runtime/PoolVerticle.class", "conf/config.json",
          "webroot/index.html");
      assertThat(names).doesNotContain("logback.xml", "logback-test.xml", "cluster.xml",
          "META-INF/BenchmarkList");
      assertThat(names).allMatch(name -> name.startsWith("META-INF/") || name.startsWith("dev/")
          || name.startsWith("conf/") || name.startsWith("webroot/"));
    }
  }

  @Test
  void library_jar_leaves_the_benchmarks_and_the_demo_worker_to_the_runnable_jar()
      throws IOException {
    Path runnableJar = libraryJar.resolveSibling("shepherd.jar");
    try (JarFile library = new JarFile(libraryJar.toFile());
        JarFile runnable = new JarFile(runnableJar.toFile())) {
      List<String> inLibrary = library.stream().map(ZipEntry::getName).toList();
      List<String> inRunnable = runnable.stream().map(ZipEntry::getName).toList();

      assertThat(inLibrary).noneMatch(name -> name.startsWith("dev/shepherd/bench/")
          || name.startsWith("dev/shepherd/demo/"));
      assertThat(inRunnable).contains("dev/shepherd/demo/DemoWorker.class",
          "dev/shepherd/bench/LoadBench.class", "META-INF/BenchmarkList",
          "dev/shepherd/runtime/PoolVerticle.class");
      assertThat(inRunnable).anyMatch(name -> name.startsWith("dev/shepherd/bench/jmh_generated/"));
    }
  }

  @Test
  void a_project_depending_on_the_library_builds_offline_and_runs_a_job() throws Exception {
    Path project = prepareWorkspace();
    Path classpathFile = work.resolve("classpath.txt");
    Path buildLog = work.resolve("build.log");

    int built = run(mavenCommand(project, classpathFile), project, buildLog, buildLog,
        Duration.ofMinutes(4));
    if (built != 0) {
      fail("the consumer project did not build (exit %d); a missing artifact means .ci/run must"
          + " fetch it before the offline run. Maven's output (%s):%n%s", built, buildLog,
          tail(buildLog, 60));
    }

    List<String> classpath = new ArrayList<>(List.of(project.resolve("target/classes").toString()));
    classpath.addAll(Arrays.asList(Files.readString(classpathFile).trim().split(":")));
    assertThat(classpath).as("what a consumer gets from the library's pom")
        .map(entry -> Path.of(entry).getFileName().toString())
        .contains("vertx-core-" + property("shepherd.vertx.version") + ".jar")
        .noneMatch(name -> name.startsWith("logback") || name.startsWith("jmh-core")
            || name.startsWith("hazelcast") || name.startsWith("vertx-launcher"));

    Path stdout = work.resolve("app.stdout");
    Path stderr = work.resolve("app.stderr");
    List<String> app = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(":", classpath), MAIN_CLASS);
    int status = run(app, project, stdout, stderr, Duration.ofSeconds(90));

    assertThat(status).as("exit status; stderr:%n%s", Files.readString(stderr)).isZero();
    assertThat(new JsonObject(Files.readString(stdout).trim()))
        .isEqualTo(new JsonObject().put("greeting", "Hello, world!"));
  }

  /**
   * A fresh copy of the consumer project, the library installed in a repository of its own (as
   * {@code mvn install} lays it out), and settings that send every other request to this build's
   * local repository.
   */
  private static Path prepareWorkspace() throws IOException {
    FileTrees.delete(work);
    Path project = work.resolve("project");
    FileTrees.copy(base.resolve("src/it/consumer"), project);

    String version = property("shepherd.library.version");
    Path installed = work.resolve("repository/dev/shepherd/shepherd").resolve(version);
    Files.createDirectories(installed);
    Files.copy(libraryJar, installed.resolve("shepherd-" + version + ".jar"));
    Files.copy(base.resolve("pom.xml"),
        installed.resolve("shepherd-" + version + ".pom"));

    String buildRepository = Path.of(property("shepherd.local.repository")).toUri().toString();
    String settings = """
        <settings>
          <localRepository>%s</localRepository>
          <offline>true</offline>
          <mirrors>
            <mirror>
              <id>build-local-repository</id>
              <mirrorOf>*</mirrorOf>
              <url>%s</url>
            </mirror>
          </mirrors>
          <profiles>
            <profile>
              <id>build-local-repository</id>
              <!-- Its files were checked when they were downloaded; copies carry no checksums. -->
              <repositories>%s</repositories>
              <pluginRepositories>%s</pluginRepositories>
            </profile>
          </profiles>
          <activeProfiles><activeProfile>build-local-repository</activeProfile></activeProfiles>
        </settings>
        """;
    String central = """
        <repository>
          <id>central</id>
          <url>%s</url>
          <releases><checksumPolicy>ignore</checksumPolicy></releases>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
        """.formatted(buildRepository);
    Files.writeString(work.resolve("settings.xml"), settings.formatted(
        work.resolve("repository"), buildRepository, central,
        central.replace("repository>", "pluginRepository>")));
    return project;
  }

  private static List<String> mavenCommand(Path project, Path classpathFile) {
    Path settings = work.resolve("settings.xml");
    return List.of(Path.of(property("shepherd.maven.home"), "bin", "mvn").toString(),
        "-B", "-o", "-s", settings.toString(), "-gs", settings.toString(),
        "-Dmaven.repo.local=" + work.resolve("repository"),
        "-Daether.offline.protocols=file",
        "-f", project.resolve("pom.xml").toString(),
        "compile",
        "org.apache.maven.plugins:maven-dependency-plugin:"
            + property("shepherd.dependency.plugin.version") + ":build-classpath",
        "-Dmdep.outputFile=" + classpathFile);
  }

  /** Runs {@code command} to its end; one still running after {@code limit} is killed. */
  private static int run(List<String> command, Path directory, Path stdout, Path stderr,
      Duration limit) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
        .redirectOutput(stdout.toFile());
    if (stderr.equals(stdout)) {
      builder.redirectErrorStream(true);
    } else {
      builder.redirectError(stderr.toFile());
    }
    // The nested Maven takes its local repository from the command line alone.
    builder.environment().remove("MAVEN_OPTS");
    builder.environment().remove("MAVEN_ARGS");
    Process process = builder.start();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      fail("%s did not finish within %s; its output:%n%s", command.get(0), limit,
          tail(stdout, 60));
    }
    return process.exitValue();
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      fail("system property %s is not set: run this test through Maven (mvn verify)", name);
    }
    return value;
  }

  private static String normalize(String text) {
    return text.replace("\r\n", "\n").strip();
  }

  private static String tail(Path file, int lines) {
    try {
      List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "<unreadable: " + e + ">";
    }
  }
}
