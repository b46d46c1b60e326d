package dev.shepherd;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.Test;

/**
 * The parts depend one way (section 2): app -> web / cluster -> runtime -> core, with no cycle
 * between any two packages, and Hazelcast stays in cluster (core and runtime know nothing of
 * it). Next to {@code CorePurityTest}, which keeps the core pure.
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
