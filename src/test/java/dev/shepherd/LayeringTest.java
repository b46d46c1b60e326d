package dev.shepherd;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The parts depend one way (section 2): app -> web / cluster -> runtime -> core, with no cycle
 * between any two packages, and Hazelcast stays in cluster (core and runtime know nothing of
 * it). Next to {@code CorePurityTest}, which keeps the core pure.
 *
 * <p>The layout shows it (issue 16): the library's front door is {@code dev.shepherd.runtime},
 * exactly the {@link #API} types; everything else of the runtime and the cluster lives in
 * subpackages that say they are internal, with no cycle among them; what a user writes (the
 * consumer example, the demo worker) imports only the front door and the core's values; and
 * nothing of the library uses the benchmarks or the demo, which only the runnable jar carries.
 */
class LayeringTest {

  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.shepherd");

  private static LayeredArchitecture layers() {
    return layeredArchitecture().consideringOnlyDependenciesInLayers()
        .layer("App").definedBy("dev.shepherd.app..")
        .layer("Web").definedBy("dev.shepherd.web..")
        .layer("Cluster").definedBy("dev.shepherd.cluster..")
        .layer("Runtime").definedBy("dev.shepherd.runtime..")
        .layer("Core").definedBy("dev.shepherd.core..")
        .whereLayer("App").mayNotBeAccessedByAnyLayer()
        .whereLayer("Web").mayOnlyBeAccessedByLayers("App")
        .whereLayer("Cluster").mayOnlyBeAccessedByLayers("App")
        .whereLayer("Runtime").mayOnlyBeAccessedByLayers("App", "Web", "Cluster")
        .whereLayer("Core").mayOnlyBeAccessedByLayers("App", "Web", "Cluster", "Runtime");
  }

  static final ArchRule LAYERS = layers()
      .because("dependencies point app -> web/cluster -> runtime -> core");

  static final ArchRule NO_CYCLES = slices().matching("dev.shepherd.(*)..").should()
      .beFreeOfCycles();

  static final ArchRule NO_HAZELCAST_BELOW_CLUSTER = noClasses()
      .that().resideInAnyPackage("dev.shepherd.core..", "dev.shepherd.runtime..")
      .should().dependOnClassesThat()
      .resideInAnyPackage("com.hazelcast..", "io.vertx.spi.cluster..")
      .because("core knows slots and hosts, never transports; Hazelcast is the cluster's");

  /**
   * What a library user imports from the runtime: what to implement, what to deploy and call,
   * their options and requests, the exceptions a call fails with, and what their signatures
   * need. A new public type here is a promise; put it in a subpackage unless users need it.
   */
  static final List<String> API = List.of(
      "PoolVerticle", "PoolConfig", "OnException",
      "JobHandler", "Job", "WorkerContext",
      "PoolClient", "PoolClientOptions", "JobRequest", "RetryOverride", "DeadLetterPage",
      "JobException", "JobFailedException", "JobRejectedException", "JobInterruptedException",
      "JobCancelledException", "JobWaitTimeoutException", "PoolErrorException",
      "JobRateLimitedException");

  /** Packages of the runtime and the cluster other than the front door: no promise. */
  static final DescribedPredicate<JavaClass> INTERNAL =
      resideInAPackage("dev.shepherd.runtime..").and(DescribedPredicate.not(
          resideInAPackage("dev.shepherd.runtime"))).or(resideInAPackage("dev.shepherd.cluster.."))
          .or(resideInAPackage("dev.shepherd.core.ha.."))
          .as("an internal package of the runtime, the cluster or the core");

  static final ArchRule FRONT_DOOR = classes()
      .that().resideInAPackage("dev.shepherd.runtime").and().haveModifier(JavaModifier.PUBLIC)
      .and().areTopLevelClasses()
      .should().haveNameMatching("dev\\.shepherd\\.runtime\\.(" + String.join("|", API) + ")")
      .because("the library's public API is the chosen types; the rest is internal");

  static final ArchRule DEMO_USES_ONLY_THE_API = noClasses()
      .that().resideInAPackage("dev.shepherd.demo..")
      .should().dependOnClassesThat(INTERNAL.or(resideInAPackage("dev.shepherd.web.."))
          .or(resideInAPackage("dev.shepherd.app..")))
      .because("the demo worker is written as a user would: the API and the core's values");

  static final ArchRule LIBRARY_USES_NO_BENCH_NOR_DEMO = noClasses()
      .that().resideOutsideOfPackages("dev.shepherd.bench..", "dev.shepherd.demo..")
      .should().dependOnClassesThat().resideInAnyPackage("dev.shepherd.bench..",
          "dev.shepherd.demo..")
      .because("the library jar leaves them out: only the runnable jar carries them");

  static final ArchRule NO_CYCLES_IN_THE_RUNTIME = slices()
      .matching("dev.shepherd.runtime.(*)..").should().beFreeOfCycles()
      .because("the runtime's parts are layered: time, payload, config < slot < wire < ha"
          + " < coordinator < observe < access (the front door uses them all, and they the"
          + " front door's types)");

  static final ArchRule NO_CYCLES_IN_THE_CLUSTER = slices()
      .matching("dev.shepherd.cluster.(*)..").should().beFreeOfCycles()
      .because("the cluster's parts are layered: ha < setup; hosts; setup, hosts < directory");

  /** The API's types all exist, so the list cannot name what is gone. */
  @Test
  void the_runtime_package_exposes_only_the_api_types() {
    FRONT_DOOR.check(MAIN);
    Set<String> found = new TreeSet<>();
    MAIN.stream().filter(c -> c.getPackageName().equals("dev.shepherd.runtime"))
        .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC) && c.isTopLevelClass())
        .forEach(c -> found.add(c.getSimpleName()));
    assertThat(found).containsExactlyInAnyOrderElementsOf(API);
  }

  @Test
  void the_demo_worker_imports_only_the_api_and_the_core() {
    DEMO_USES_ONLY_THE_API.check(MAIN);
  }

  /**
   * The consumer example (src/it/consumer, built by {@code LibraryConsumerIT} against the
   * installed jar) is read as source: every import of Shepherd names an API type or the core.
   */
  @Test
  void the_consumer_example_imports_only_the_api_and_the_core() throws IOException {
    Pattern shepherdImport = Pattern.compile(
        "^import\\s+(?:static\\s+)?(dev\\.shepherd\\.[\\w.]+);", Pattern.MULTILINE);
    List<Path> sources;
    try (Stream<Path> files = Files.walk(Path.of("src/it/consumer/src"))) {
      sources = files.filter(p -> p.toString().endsWith(".java")).toList();
    }
    assertThat(sources).isNotEmpty();
    Set<String> imported = new TreeSet<>();
    for (Path source : sources) {
      Matcher m = shepherdImport.matcher(Files.readString(source));
      while (m.find()) {
        imported.add(m.group(1));
      }
    }
    assertThat(imported).isNotEmpty().allSatisfy(name -> assertThat(
        name.matches("dev\\.shepherd\\.runtime\\.(" + String.join("|", API) + ")(\\..*)?")
            || name.matches("dev\\.shepherd\\.core\\.[A-Z].*"))
        .as("%s is the API or a value of the core", name).isTrue());
  }

  @Test
  void no_library_class_uses_the_benchmarks_or_the_demo() {
    LIBRARY_USES_NO_BENCH_NOR_DEMO.check(MAIN);
  }

  @Test
  void the_runtime_subpackages_depend_on_each_other_one_way() {
    NO_CYCLES_IN_THE_RUNTIME.check(MAIN);
  }

  @Test
  void the_cluster_subpackages_depend_on_each_other_one_way() {
    NO_CYCLES_IN_THE_CLUSTER.check(MAIN);
  }

  /** Each internal package says so where a reader looks first: its package-info. */
  @Test
  void every_internal_package_says_it_is_internal() throws IOException {
    Set<String> packages = new TreeSet<>();
    MAIN.stream().filter(INTERNAL::test).forEach(c -> packages.add(c.getPackageName()));
    assertThat(packages).contains("dev.shepherd.runtime.coordinator", "dev.shepherd.cluster.hosts");
    for (String pkg : packages) {
      Path info = Path.of("src/main/java", pkg.replace('.', '/'), "package-info.java");
      assertThat(info).as("the package-info of %s", pkg).exists();
      assertThat(Files.readString(info)).as(info.toString())
          .startsWith("/**\n * Internal, with no compatibility promise");
    }
  }

  @Test
  void dependencies_point_from_app_through_web_and_cluster_to_runtime_and_core() {
    LAYERS.check(MAIN);
  }

  @Test
  void no_two_packages_depend_on_each_other() {
    NO_CYCLES.check(MAIN);
  }

  @Test
  void neither_core_nor_runtime_imports_hazelcast() {
    NO_HAZELCAST_BELOW_CLUSTER.check(MAIN);
  }
}
