package dev.shepherd.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The web layer depends on the runtime and the core, never on the launcher ({@code app}): the
 * application assembles the web server, not the other way round (section 2).
 */
class WebLayerTest {
  @Test
  void web_does_not_depend_on_the_launcher() {
    noClasses().that().resideInAPackage("dev.shepherd.web..")
        .should().dependOnClassesThat().resideInAPackage("dev.shepherd.app..")
        .because("app -> web -> runtime -> core; the HTTP configuration lives in web")
        .check(new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.shepherd.web"));
  }
}
