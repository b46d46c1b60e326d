package dev.shepherd.cluster;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Within the cluster package, only {@code HazelcastMembership}, the configuration ({@code
 * ClusterSetup}) and the cluster manager it makes ({@code DepartureAwareClusterManager}, with the
 * members' event-bus addresses it follows in vertx-hazelcast's map, {@code KnownNodeInfos}), the
 * guard of this node's consumers ({@code HazelcastRegistrationGuard}, loaded by name only on a
 * vertx-hazelcast cluster) and the leadership of highly available pools ({@code
 * HazelcastLeadership} and its store, {@code HaStore}, loaded only for a pool with {@code
 * ha.enabled}) name Hazelcast or vertx-hazelcast: a pool's worker-host support runs on any cluster
 * manager, and a library user without vertx-hazelcast (an optional dependency) never loads it.
 * {@code LayeringTest} keeps Hazelcast out of core and runtime.
 */
class ClusterLayerTest {
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.shepherd.cluster");

  @Test
  void only_the_membership_adapter_and_the_configuration_use_hazelcast() {
    noClasses().that().resideInAPackage("dev.shepherd.cluster..")
        .and().haveNameNotMatching(
            "dev\\.shepherd\\.cluster\\.(setup\\.HazelcastMembership|setup\\.ClusterSetup"
                + "|setup\\.HazelcastRegistrationGuard|setup\\.DepartureAwareClusterManager"
                + "|setup\\.KnownNodeInfos"
                + "|ha\\.HazelcastLeadership|ha\\.HaStore)(\\$.*)?")
        .should().dependOnClassesThat().resideInAnyPackage("com.hazelcast..",
            "io.vertx.spi.cluster.hazelcast..")
        .check(MAIN);
  }
}
