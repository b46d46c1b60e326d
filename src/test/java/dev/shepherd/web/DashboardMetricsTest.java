package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * T3 in docs/rules.md: the Grafana dashboard shipped in {@code docs/grafana/shepherd.json} uses
 * only metric names a running pool's {@code /metrics} exports, and that scrape passes {@code
 * promtool check metrics} (skipped, saying why, where promtool is not installed: {@code apt-get
 * install prometheus}).
 */
class DashboardMetricsTest {
  static final Path DASHBOARD = Path.of("docs", "grafana", "shepherd.json");
  /** A metric selector in PromQL: a name followed by its label matchers. */
  private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{");
  /** A sample line of the exposition format: its metric name. */
  private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]");

  private static String scrape;

  /** A scrape of a pool that has done some work: completed, failed and crashed jobs. */
  @BeforeAll
  static void scrapeAWorkingPool() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 2)))) {
      for (String payload : List.of("{\"sleepMs\":5}", "{\"sleepMs\":5}", "{\"fail\":\"no\"}",
          "{\"crash\":true}")) {
        Http.post(app.url("/api/pools/jobs/jobs"), "{\"payload\":" + payload + "}");
      }
      Http.Response r = Http.get(app.url("/metrics"));
      assertThat(r.status()).isEqualTo(200);
      scrape = r.body();
    }
  }

  /** Every PromQL expression of the dashboard: its panels' targets and its variables' queries. */
  static List<String> expressions(JsonObject dashboard) {
    List<String> out = new ArrayList<>();
    collect(dashboard.getJsonArray("panels"), out);
    for (Object v : dashboard.getJsonObject("templating").getJsonArray("list")) {
      Object query = ((JsonObject) v).getValue("query");
      out.add(query instanceof JsonObject q ? q.getString("query") : String.valueOf(query));
    }
    return out;
  }

  private static void collect(JsonArray panels, List<String> out) {
    if (panels == null) {
      return;
    }
    for (Object p : panels) {
      JsonObject panel = (JsonObject) p;
      collect(panel.getJsonArray("panels"), out);
      JsonArray targets = panel.getJsonArray("targets");
      if (targets != null) {
        targets.forEach(t -> out.add(((JsonObject) t).getString("expr")));
      }
    }
  }

  static Set<String> metricNames(String expression) {
    Set<String> names = new TreeSet<>();
    Matcher m = SELECTOR.matcher(expression);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static Set<String> exported(String text) {
    Set<String> names = new TreeSet<>();
    for (String line : text.split("\n")) {
      Matcher m = SAMPLE.matcher(line);
      if (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  @Test
  void T3_every_metric_the_dashboard_queries_is_exported_by_a_running_pool() throws IOException {
    JsonObject dashboard = new JsonObject(Files.readString(DASHBOARD, StandardCharsets.UTF_8));
    List<String> expressions = expressions(dashboard);
    assertThat(expressions).hasSizeGreaterThanOrEqualTo(15);
    Set<String> used = new TreeSet<>();
    for (String expression : expressions) {
      Set<String> names = metricNames(expression);
      assertThat(names).as("a metric selector in: %s", expression).isNotEmpty();
      used.addAll(names);
    }
    assertThat(used).contains("shepherd_jobs_finished_total", "shepherd_queue_wait_seconds_bucket",
        "shepherd_run_time_seconds_bucket", "shepherd_slots", "shepherd_restarts_total",
        "shepherd_restart_budget_used", "shepherd_dead_letters");
    assertThat(exported(scrape)).containsAll(used);
  }

  @Test
  void T3_the_dashboards_expressions_count_each_pool_once() throws IOException {
    JsonObject dashboard = new JsonObject(Files.readString(DASHBOARD, StandardCharsets.UTF_8));
    for (String expression : expressions(dashboard)) {
      assertThat(expression).as("reads only the coordinating node's copy")
          .contains("coordinator=\"local\"");
    }
  }

  @Test
  void T3_a_scrape_passes_promtool_check_metrics() throws Exception {
    String promtool = onPath("promtool");
    Assumptions.assumeTrue(promtool != null,
        "promtool is not installed (apt-get install prometheus): not checked");
    Process check = new ProcessBuilder(promtool, "check", "metrics").redirectErrorStream(true)
        .start();
    check.getOutputStream().write(scrape.getBytes(StandardCharsets.UTF_8));
    check.getOutputStream().close();
    String said = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(said).as("promtool check metrics").isEmpty();
    assertThat(check.exitValue()).isZero();
  }

  private static String onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File file = new File(dir, command);
      if (file.canExecute()) {
        return file.getPath();
      }
    }
    return null;
  }
}
