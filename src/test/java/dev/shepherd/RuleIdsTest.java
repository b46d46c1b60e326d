package dev.shepherd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
 * The rule ids (P16, A4, J5, …) and the specification's sections ("section 8.2") that code,
 * tests and docs cite are each stated in {@code docs/rules.md}, which has an anchor for every
 * one ({@code rules.md#p16}, {@code rules.md#section-8-2}); and a javadoc comment that cites
 * one says where they are, by naming {@code docs/rules.md} (a link would not work in a jar).
 */
class RuleIdsTest {
  private static final Path RULES = Path.of("docs", "rules.md");
  /** A rule id: its group's letter and its number (F and T are reserved, so none may be cited). */
  private static final Pattern RULE = Pattern.compile("\\b([PSCHAJF][0-9]{1,2}|T[1-9][0-9]?)\\b");
  private static final Pattern SECTION =
      Pattern.compile("\\b[Ss]ections? ([0-9]+(?:\\.[0-9]+)?)");
  private static final Pattern JAVADOC = Pattern.compile("/\\*\\*.*?\\*/", Pattern.DOTALL);
  private static final Pattern ANCHOR = Pattern.compile("<a id=\"([a-z0-9-]+)\"></a>");

  @Test
  void every_rule_id_and_section_cited_is_stated_in_docs_rules_md() {
    Set<String> anchors = new TreeSet<>();
    Matcher m = ANCHOR.matcher(read(RULES));
    while (m.find()) {
      anchors.add(m.group(1));
    }
    Set<String> missing = new TreeSet<>();
    for (Path file : sources()) {
      String text = read(file);
      Matcher rule = RULE.matcher(text);
      while (rule.find()) {
        if (!anchors.contains(rule.group(1).toLowerCase())) {
          missing.add(rule.group(1) + " (" + file + ")");
        }
      }
      Matcher section = SECTION.matcher(text);
      while (section.find()) {
        String anchor = "section-" + section.group(1).replace('.', '-');
        if (!anchors.contains(anchor)) {
          missing.add("section " + section.group(1) + " (" + file + ")");
        }
      }
    }
    assertThat(anchors).as("docs/rules.md's anchors").contains("p1", "j8", "section-6");
    assertThat(missing).as("cited but not stated in docs/rules.md").isEmpty();
  }

  @Test
  void a_javadoc_comment_that_cites_a_rule_names_docs_rules_md() {
    Set<String> bare = new TreeSet<>();
    for (Path file : javaFiles(Path.of("src", "main", "java"))) {
      Matcher doc = JAVADOC.matcher(read(file));
      while (doc.find()) {
        String comment = doc.group();
        if ((RULE.matcher(comment).find() || SECTION.matcher(comment).find())
            && !comment.contains("docs/rules.md")) {
          bare.add(file + ": " + comment.lines().skip(1).findFirst().orElse(comment).trim());
        }
      }
    }
    assertThat(bare).as("javadoc citing a rule without naming docs/rules.md, e.g. \"(P9 in"
        + " docs/rules.md)\" or \"P9 (docs/rules.md)\" at its first citation").isEmpty();
  }

  private static List<Path> sources() {
    return Stream.of(
            javaFiles(Path.of("src", "main", "java")).stream(),
            javaFiles(Path.of("src", "test", "java")).stream(),
            files(Path.of("webroot", "js"), ".js").stream(),
            files(Path.of("src", "test", "js"), ".js").stream(),
            files(Path.of("docs"), ".md").stream(),
            Stream.of(Path.of("README.md")))
        .flatMap(s -> s)
        .filter(p -> !p.equals(RULES))
        .toList();
  }

  private static List<Path> javaFiles(Path root) {
    return files(root, ".java");
  }

  private static List<Path> files(Path root, String suffix) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
