package dev.shepherd.cluster;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Hazelcast stays in the cluster package: the core and the runtime know slots and hosts, never a
 * transport or a cluster manager, and they do not depend on the cluster package (it plugs into the
 * runtime as a {@code PoolExtension}). Only {@code HazelcastMembership} names Hazelcast's
 * membership API, so a library user without vertx-hazelcast never loads it.
 */
class ClusterLayerTest {
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.shepherd");

  @Test
  void core_and_runtime_import_nothing_of_hazelcast_or_the_cluster_package() {
    noClasses().that().resideInAnyPackage("dev.shepherd.core..", "dev.shepherd.runtime..")
        .should().dependOnClassesThat().resideInAnyPackage("com.hazelcast..",
            "io.vertx.spi.cluster..", "dev.shepherd.cluster..")
        .because("app -> web/cluster -> runtime -> core (section 2, 8.2 transport)")
        .check(MAIN);
  }

  @Test
  void only_the_membership_adapter_uses_hazelcasts_membership_api() {
    noClasses().that().resideInAPackage("dev.shepherd.cluster..")
        .and().haveNameNotMatching(
            "dev\\.shepherd\\.cluster\\.(HazelcastMembership|ClusterSetup)(\\$.*)?")
        .should().dependOnClassesThat().resideInAnyPackage("com.hazelcast.cluster..",
            "io.vertx.spi.cluster.hazelcast..")
        .check(MAIN);
  }
}
