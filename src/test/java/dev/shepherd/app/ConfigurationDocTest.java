package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.core.ConfigException;
import dev.shepherd.demo.DemoWorker;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md cannot drift from the parsers. The fields a node's configuration accepts
 * are found by asking the parsers themselves: each object of a configuration is given an unknown
 * field, which its parser refuses naming the fields it knows ({@code onlyFields}), and each of
 * those is given an object with an unknown field in turn, which tells objects from values. So a
 * field added to a parser and not to the page fails here, as does a row naming a field no parser
 * accepts, a default the parser does not give, or a bound the parser does not check.
 *
 * <p>The page's tables are read by their header: a table whose first column is {@code field}
 * lists fields relative to the code span of its section's heading ({@code ## `http`} gives
 * {@code http.port}; a heading without one is the top level), and one whose first column is
 * {@code variable} lists environment variables.
 */
class ConfigurationDocTest {
  private static final Path DOC = base().resolve("docs/configuration.md");
  private static final String PROBE = "zzProbe";
  private static final String DEMO = DemoWorker.class.getName();
  /** Bounds this large are "no limit that matters" (the parsers use a quarter of a long). */
  private static final BigDecimal NO_PRACTICAL_LIMIT = BigDecimal.valueOf(2).pow(60);

  /**
   * Leaves whose default the page states in words, because it is derived or required: the
   * few the default check cannot parse. Anything else must state its default as a value.
   */
  private static final Set<String> DEFAULTS_IN_WORDS = Set.of("pools[].worker.class",
      "pools[].address", "pools[].backlogMaxBytes", "http.token", "hosts[].pool", "hosts[].id",
      "hosts[].address");

  private enum Kind { VALUE, OBJECT, ARRAY }

  private record Row(String path, String defaultCell, String rangeCell, int line) {}

  private static Map<String, Kind> accepted;
  private static Map<String, Row> documented;
  private static Map<String, Row> variables;

  @BeforeAll
  static void readParsersAndPage() throws IOException {
    accepted = new TreeMap<>();
    discover(baseConfig(), List.of(), "", accepted);
    documented = new LinkedHashMap<>();
    variables = new LinkedHashMap<>();
    readTables(Files.readAllLines(DOC));
  }

  @Test
  void every_field_the_parsers_accept_has_a_row() {
    assertThat(accepted).as("fields found by probing the parsers")
        .containsKeys("http.port", "http.bridge.inbound", "pools[].worker.class",
            "pools[].supervision.restartBackoff.seed", "hosts[].heartbeatMs");

    List<String> missing = accepted.entrySet().stream()
        .filter(e -> e.getValue() == Kind.VALUE)
        .map(Map.Entry::getKey)
        .map(ConfigurationDocTest::asDocumented)
        .filter(path -> !documented.containsKey(path))
        .distinct()
        .toList();
    assertThat(missing).as("fields the parsers accept that %s does not list", DOC).isEmpty();
  }

  @Test
  void every_row_names_a_field_a_parser_accepts() {
    List<String> unknown = documented.values().stream()
        .filter(row -> !accepted.containsKey(row.path()))
        .map(row -> row.path() + " (line " + row.line() + ")")
        .toList();
    assertThat(unknown).as("rows of %s that no parser accepts", DOC).isEmpty();
  }

  /** The page documents a host's {@code worker} as a pool's: that holds field for field. */
  @Test
  void a_hosts_worker_takes_the_fields_of_a_pools_worker() {
    assertThat(fieldsUnder("hosts[].worker.")).isEqualTo(fieldsUnder("pools[].worker."));
    assertThat(documented).containsKey("hosts[].worker");
  }

  @Test
  void every_stated_default_is_what_the_parser_gives_a_field_left_out() {
    AppConfig without = parse(baseConfig());
    List<String> wrong = new ArrayList<>();
    Set<String> inWords = new TreeSet<>();
    for (Row row : documented.values()) {
      if (accepted.get(row.path()) != Kind.VALUE) {
        continue;
      }
      Object stated = literal(row.defaultCell());
      if (stated == null) {
        inWords.add(row.path());
        continue;
      }
      JsonObject config = baseConfig();
      put(config, row.path(), stated);
      AppConfig with = parse(config);
      if (!sameConfiguration(with, without)) {
        wrong.add(row.path() + ": " + row.defaultCell() + " (line " + row.line() + ")");
      }
    }
    assertThat(wrong).as("defaults that %s states but the parser does not give", DOC).isEmpty();
    assertThat(inWords).as("defaults stated in words rather than as a value")
        .isEqualTo(new TreeSet<>(DEFAULTS_IN_WORDS));
  }

  @Test
  void every_bound_the_parser_checks_is_in_the_range_column() {
    List<String> wrong = new ArrayList<>();
    for (Row row : documented.values()) {
      if (accepted.get(row.path()) != Kind.VALUE) {
        continue;
      }
      BigDecimal[] bounds = bounds(row.path());
      if (bounds == null) {
        continue; // not a number, or any number will do
      }
      List<BigDecimal> stated = numbers(row.rangeCell());
      for (BigDecimal bound : bounds) {
        boolean noLimit = bound == null || bound.compareTo(NO_PRACTICAL_LIMIT) >= 0;
        if (!noLimit && stated.stream().noneMatch(n -> n.compareTo(bound) == 0)) {
          wrong.add(row.path() + ": the parser's bound " + bound.toPlainString()
              + " is not in \"" + row.rangeCell() + "\" (line " + row.line() + ")");
        }
      }
    }
    assertThat(wrong).as("ranges of %s that are not the parsers'", DOC).isEmpty();
  }

  @Test
  void every_cluster_variable_is_listed_with_its_default() throws IllegalAccessException {
    Set<String> defined = new TreeSet<>();
    for (Field field : ClusterSettings.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class
          && ((String) field.get(null)).startsWith("SHEPHERD_CLUSTER_")) {
        defined.add((String) field.get(null));
      }
    }
    Set<String> listed = variables.keySet().stream()
        .filter(name -> name.startsWith("SHEPHERD_CLUSTER_"))
        .filter(name -> !name.startsWith("SHEPHERD_CLUSTER_KEY")) // ClusterKeys reads those
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(listed).as("cluster variables in %s", DOC).isEqualTo(defined);

    for (String name : listed) {
      Row row = variables.get(name);
      try {
        ClusterSettings.fromEnvironment(Map.of(name, "!!"));
        fail("%s is listed, but the cluster settings do not read it", name);
      } catch (ConfigException e) {
        assertThat(e.field()).as("what a bad %s names", name).isEqualTo(name);
      }
      Object stated = literal(row.defaultCell());
      assertThat(stated).as("the default of %s, line %d", name, row.line()).isNotNull();
      assertThat(ClusterSettings.fromEnvironment(Map.of(name, String.valueOf(stated))))
          .as("the settings with %s=%s stated", name, stated)
          .isEqualTo(ClusterSettings.defaults());
    }
  }

  /** The page and the examples run these files; each must start a node. */
  @Test
  void every_configuration_in_conf_parses() throws IOException {
    List<Path> files;
    try (Stream<Path> listing = Files.list(base().resolve("conf"))) {
      files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      boolean clustered = file.getFileName().toString().startsWith("cluster-");
      JsonObject json = new JsonObject(Files.readString(file));
      assertThat(AppConfig.parse(json, clustered)).as("%s", file).isNotNull();
    }
  }

  // --- the parsers, probed

  /**
   * A clustered node's configuration with one pool and one worker host, each with only what is
   * required: every other field takes its default.
   */
  private static JsonObject baseConfig() {
    return new JsonObject()
        .put("pools", new JsonArray().add(new JsonObject()
            .put("worker", new JsonObject().put("class", DEMO))))
        .put("hosts", new JsonArray().add(new JsonObject().put("pool", "other").put("id", "h1")
            .put("worker", new JsonObject().put("class", DEMO))));
  }

  private static AppConfig parse(JsonObject config) {
    return AppConfig.parse(config, true);
  }

  /** The raw JSON of the pools differs by design; what the parsers made must not. */
  private static boolean sameConfiguration(AppConfig a, AppConfig b) {
    return a.http().equals(b.http()) && a.pools().equals(b.pools())
        && a.hosts().equals(b.hosts());
  }

  /**
   * Records in {@code out} the fields of the object at {@code at} (a path of field names and
   * array indexes in {@code root}) under their documented names ({@code pools[].worker}).
   */
  private static void discover(JsonObject root, List<Object> at, String name,
      Map<String, Kind> out) {
    JsonObject target = resolve(root, at);
    for (String field : fieldsOf(root, at)) {
      String path = name.isEmpty() ? field : name + "." + field;
      List<Object> where = append(at, field);
      Object original = target.getValue(field);
      if (original instanceof JsonArray array) {
        out.put(path, Kind.ARRAY);
        if (!array.isEmpty() && array.getValue(0) instanceof JsonObject) {
          discover(root, append(where, 0), path + "[]", out);
        }
        continue;
      }
      target.put(field, new JsonObject().put(PROBE, 1));
      boolean isObject = refusesProbeAt(root, where);
      restore(target, field, original);
      if (!isObject) {
        out.put(path, Kind.VALUE);
        continue;
      }
      out.put(path, Kind.OBJECT);
      if (original == null) {
        target.put(field, new JsonObject());
      }
      discover(root, where, path, out);
      restore(target, field, original);
    }
  }

  /** The fields the parser of the object at {@code at} knows, as its refusal names them. */
  private static List<String> fieldsOf(JsonObject root, List<Object> at) {
    JsonObject target = resolve(root, at);
    target.put(PROBE, 1);
    try {
      parse(root);
      throw new AssertionError("the parser of " + errorPath(at) + " accepted an unknown field");
    } catch (ConfigException e) {
      Matcher known = Pattern.compile("unknown field; expected one of \\[([^\\]]*)]")
          .matcher(e.getMessage());
      if (!e.field().equals(errorPath(append(at, PROBE))) || !known.find()) {
        throw new AssertionError("the parser of " + errorPath(at)
            + " did not name its fields: " + e.getMessage(), e);
      }
      return Stream.of(known.group(1).split(",")).map(String::trim)
          .filter(s -> !s.isEmpty()).toList();
    } finally {
      target.remove(PROBE);
    }
  }

  private static boolean refusesProbeAt(JsonObject root, List<Object> at) {
    try {
      parse(root);
      return false;
    } catch (ConfigException e) {
      return e.field().equals(errorPath(append(at, PROBE)))
          && e.getMessage().contains("unknown field");
    }
  }

  /**
   * The lower and upper bound the parser names for a number far below any range, {@code null}
   * for an upper bound of ∞; {@code null} when it names none (not a number, or any will do).
   */
  private static BigDecimal[] bounds(String path) {
    JsonObject config = baseConfig();
    put(config, path, Long.MIN_VALUE);
    try {
      parse(config);
      return null;
    } catch (ConfigException e) {
      if (!e.field().equals(path.replace("[]", "[0]"))) {
        return null;
      }
      Matcher m = Pattern.compile("(?:between|from) (-?[0-9.]+) (?:and|to) (∞|-?[0-9.]+)")
          .matcher(e.getMessage());
      if (!m.find()) {
        return null;
      }
      BigDecimal upper = m.group(2).equals("∞") ? null : new BigDecimal(m.group(2));
      return new BigDecimal[] {new BigDecimal(m.group(1)), upper};
    }
  }

  private static Set<String> fieldsUnder(String prefix) {
    return accepted.keySet().stream().filter(p -> p.startsWith(prefix))
        .map(p -> p.substring(prefix.length()))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** A host's worker fields are documented once, as a pool's. */
  private static String asDocumented(String path) {
    return path.startsWith("hosts[].worker.")
        ? "pools[].worker." + path.substring("hosts[].worker.".length())
        : path;
  }

  // --- JSON paths

  private static JsonObject resolve(JsonObject root, List<Object> at) {
    Object node = root;
    for (Object step : at) {
      node = step instanceof Integer i ? ((JsonArray) node).getValue(i)
          : ((JsonObject) node).getValue((String) step);
    }
    return (JsonObject) node;
  }

  /** Puts {@code value} at a documented path ({@code pools[].worker.instances}). */
  private static void put(JsonObject root, String path, Object value) {
    String[] steps = path.split("\\.");
    JsonObject node = root;
    for (int i = 0; i < steps.length - 1; i++) {
      String step = steps[i];
      if (step.endsWith("[]")) {
        node = node.getJsonArray(step.substring(0, step.length() - 2)).getJsonObject(0);
      } else {
        JsonObject next = node.getJsonObject(step);
        if (next == null) {
          next = new JsonObject();
          node.put(step, next);
        }
        node = next;
      }
    }
    node.put(steps[steps.length - 1], value);
  }

  private static String errorPath(List<Object> at) {
    StringBuilder out = new StringBuilder();
    for (Object step : at) {
      if (step instanceof Integer i) {
        out.append('[').append(i).append(']');
      } else {
        out.append(out.length() == 0 ? "" : ".").append(step);
      }
    }
    return out.toString();
  }

  private static List<Object> append(List<Object> at, Object step) {
    List<Object> out = new ArrayList<>(at);
    out.add(step);
    return out;
  }

  private static void restore(JsonObject target, String field, Object original) {
    if (original == null) {
      target.remove(field);
    } else {
      target.put(field, original);
    }
  }

  // --- the page

  private static void readTables(List<String> lines) {
    String scope = "";
    List<String> header = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.startsWith("## ")) {
        Matcher code = Pattern.compile("`([^`]+)`").matcher(line);
        scope = code.find() ? code.group(1) : "";
      }
      if (!line.startsWith("|")) {
        header = null;
        continue;
      }
      List<String> cells = cells(line);
      if (header == null) {
        header = cells;
        if (i + 1 >= lines.size() || !lines.get(i + 1).matches("\\|[-:| ]+\\|?")) {
          fail("%s line %d starts a table without a separator row under it (a blank line"
              + " inside a table splits it)", DOC, i + 1);
        }
        i++;
        continue;
      }
      if (cells.size() != header.size()) {
        fail("%s line %d has %d cells where its header has %d", DOC, i + 1, cells.size(),
            header.size());
      }
      String first = header.get(0).toLowerCase();
      if (!first.equals("field") && !first.equals("variable")) {
        continue;
      }
      Matcher code = Pattern.compile("`([^`]+)`").matcher(cells.get(0));
      if (!code.find()) {
        fail("%s line %d names no field in code", DOC, i + 1);
      }
      int defaults = header.indexOf("default");
      int range = header.indexOf("range");
      String name = first.equals("field") && !scope.isEmpty()
          ? scope + "." + code.group(1) : code.group(1);
      Row row = new Row(name, defaults < 0 ? "" : cells.get(defaults),
          range < 0 ? "" : cells.get(range), i + 1);
      Row before = (first.equals("field") ? documented : variables).put(name, row);
      if (before != null) {
        fail("%s lists %s twice (lines %d and %d)", DOC, name, before.line(), i + 1);
      }
    }
  }

  private static List<String> cells(String line) {
    String inner = line.strip();
    inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
    return Stream.of(inner.split("\\|", -1)).map(String::strip).toList();
  }

  /**
   * The value a default cell states: the content of a leading code span, or a leading number or
   * boolean; {@code null} for a default in words, or one with a placeholder ({@code <name>}).
   */
  private static Object literal(String cell) {
    String text;
    Matcher code = Pattern.compile("^`([^`]+)`").matcher(cell);
    Matcher word = Pattern.compile("^(-?[0-9][0-9.]*|true|false)(?![\\w.])").matcher(cell);
    if (code.find()) {
      text = code.group(1);
    } else if (word.find()) {
      text = word.group(1);
    } else {
      return null;
    }
    if (text.contains("<")) {
      return null;
    }
    try {
      return Json.decodeValue(text);
    } catch (DecodeException e) {
      return text; // a bare name: an enum constant, an address
    }
  }

  /** The numbers a range cell states: {@code 1,000,000}, {@code 2^61}, {@code 0.2}. */
  private static List<BigDecimal> numbers(String cell) {
    String plain = cell.replaceAll("(?<=\\d),(?=\\d{3})", "");
    Matcher m = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:\\^\\d+)?").matcher(plain);
    List<BigDecimal> out = new ArrayList<>();
    while (m.find()) {
      String n = m.group();
      int power = n.indexOf('^');
      out.add(power < 0 ? new BigDecimal(n)
          : new BigDecimal(n.substring(0, power)).pow(Integer.parseInt(n.substring(power + 1))));
    }
    return out;
  }

  private static Path base() {
    return Path.of(System.getProperty("basedir", "."));
  }
}
