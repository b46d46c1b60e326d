package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;

/**
 * The live view (section 7) in real headless Chromium against the real application: tiles per
 * slot, restarts and retirements as they happen, the event log, the chart under load, the
 * control panel, the pool selector, and reconnection after a server restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveViewBrowserTest {
  private Browser browser;
  private ChromeDriver driver;
  private LivePage page;
  private WebTestApp app;

  @BeforeAll
  void start() throws Exception {
    browser = Browser.open();
    driver = browser.driver();
    page = new LivePage(driver);
    app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 4),
        WebTestApp.demoPool("broken", 2).put("worker", new JsonObject()
            .put("class", "dev.shepherd.demo.DemoWorker").put("instances", 2)
            .put("config", new JsonObject().put("failStart", "always"))),
        WebTestApp.demoPool("fragile", 2).put("supervision",
            new JsonObject().put("maxRestarts", 0))));
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.close();
    }
    if (app != null) {
      app.close();
    }
  }

  @BeforeEach
  void idle() {
    // Each test starts from a pool with nothing running, whatever the test before left.
    LivePage.await().atMost(20, SECONDS).until(() ->
        Http.get(app.url("/api/pools/jobs")).json().getJsonArray("slots").stream()
            .map(JsonObject.class::cast).allMatch(s -> s.getString("phase").equals("IDLE")));
  }

  // ---- helpers --------------------------------------------------------------------------------

  private void open(String pool) {
    page.open(app.url("/#pool=" + pool), pool);
  }

  /** Records every phase each tile shows, and each restart cue, in window.__seen. */
  private void recordTileChanges() {
    page.js("window.__seen = {};"
        + "const note = (li) => {"
        + "  const s = window.__seen[li.dataset.slot] ||= {phases: [], cues: 0};"
        + "  const last = s.phases[s.phases.length - 1];"
        + "  if (last !== li.dataset.phase) s.phases.push(li.dataset.phase);"
        + "  if (li.classList.contains('restarted')) s.cues++; };"
        + "document.querySelectorAll('#tiles li').forEach(note);"
        + "new MutationObserver(ms => ms.forEach(m => m.target.matches"
        + "  && m.target.matches('#tiles li') && note(m.target)))"
        + "  .observe(document.getElementById('tiles'),"
        + "  {subtree: true, attributes: true, attributeFilter: ['data-phase', 'class']});");
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> seen(String slot) {
    return (Map<String, Object>) page.js("return window.__seen[arguments[0]] || null;", slot);
  }

  private void submitFromPanel(String kind, String key) {
    new Select(driver.findElement(By.id("job-kind"))).selectByValue(kind);
    WebElement keyInput = driver.findElement(By.id("job-key"));
    keyInput.clear();
    if (key != null) {
      keyInput.sendKeys(key);
    }
    driver.findElement(By.id("submit-job")).click();
  }

  // ---- tests ----------------------------------------------------------------------------------

  @Test
  void page_loads_with_one_tile_per_slot_and_phase_text_on_each() {
    open("jobs");
    LivePage.await().atMost(10, SECONDS).until(() -> page.tiles().size() == 4);
    LivePage.await().atMost(5, SECONDS).untilAsserted(() -> {
      assertThat(page.tiles()).extracting(t -> t.getAttribute("data-slot"))
          .containsExactly("w-0", "w-1", "w-2", "w-3");
      for (WebElement t : page.tiles()) {
        assertThat(t.findElement(By.className("phase")).getText()).isEqualTo("IDLE");
        assertThat(t.getText()).contains("incarnation", "restarts");
      }
      assertThat(driver.findElement(By.id("backlog-text")).getText()).matches("\\d+ / 1000");
    });
    List<String> pools = new Select(driver.findElement(By.id("pool"))).getOptions().stream()
        .map(WebElement::getText).toList();
    assertThat(pools).containsExactly("broken", "fragile", "jobs");
  }

  @Test
  void page_uses_no_external_resources_and_labels_every_control() {
    open("jobs");
    List<?> resources = (List<?>) page.js(
        "return performance.getEntriesByType('resource').map(e => e.name);");
    String origin = app.url("");
    for (Object url : resources) {
      assertThat(String.valueOf(url)).as("resource URL").startsWith(origin);
    }
    assertThat(page.js("return document.documentElement.lang")).isEqualTo("en");
    Object unlabelled = page.js("return Array.from(document.querySelectorAll('input, select'))"
        + ".filter(e => e.labels.length === 0).map(e => e.id);");
    assertThat((List<?>) unlabelled).isEmpty();
    assertThat(driver.findElement(By.id("chart")).getAttribute("role")).isEqualTo("img");
    assertThat(driver.findElement(By.id("log")).getAttribute("role")).isEqualTo("log");
  }

  @Test
  void crash_submitted_from_the_control_panel_turns_its_tile_through_the_restart_and_back() {
    open("jobs");
    Map<String, String> before = new java.util.HashMap<>();
    page.tiles().forEach(t -> before.put(t.getAttribute("data-slot"), t.getAttribute("data-restarts")));
    recordTileChanges();

    submitFromPanel("crash", null);

    LivePage.await().atMost(10, SECONDS).until(() ->
        driver.findElement(By.id("control-result")).getText().startsWith("accepted"));
    String[] crashed = new String[1];
    LivePage.await().atMost(10, SECONDS).until(() -> {
      for (WebElement t : page.tiles()) {
        String id = t.getAttribute("data-slot");
        int restarts = Integer.parseInt(t.getAttribute("data-restarts"));
        if (restarts > Integer.parseInt(before.get(id))
            && "IDLE".equals(t.getAttribute("data-phase"))) {
          crashed[0] = id;
          return true;
        }
      }
      return false;
    });
    LivePage.await().atMost(5, SECONDS).untilAsserted(() -> {
      WebElement t = page.tile(crashed[0]);
      assertThat(t.getText()).contains("last exit: CRASH");
      assertThat(Integer.parseInt(t.getAttribute("data-incarnation"))).isGreaterThan(1);
    });
    Map<String, Object> seen = seen(crashed[0]);
    assertThat(((List<?>) seen.get("phases")).stream().map(String::valueOf).toList())
        .as("phases the tile showed")
        .containsSubsequence("INSTALLING", "IDLE");
    assertThat(((Number) seen.get("cues")).intValue()).as("restart cues").isPositive();
    LivePage.await().atMost(5, SECONDS).until(() -> page.logLines().stream().anyMatch(l ->
        l.contains("RESTART") && l.contains(crashed[0] + " stopped: CRASH")));
  }

  @Test
  void retirement_shows_the_reason_on_the_tile_and_in_the_log() {
    open("jobs");
    new Select(driver.findElement(By.id("pool"))).selectByVisibleText("broken");
    page.awaitLive("broken");
    LivePage.await().atMost(10, SECONDS).until(() -> page.tiles().size() == 2 && page.tiles().stream().allMatch(t ->
        "RETIRED".equals(t.getAttribute("data-phase"))));
    LivePage.await().atMost(5, SECONDS).untilAsserted(() -> {
      for (WebElement t : page.tiles()) {
        assertThat(t.getText()).contains("RETIRED", "reason: CREATION_REJECTED");
      }
    });
    assertThat(driver.getCurrentUrl()).endsWith("#pool=broken");

    new Select(driver.findElement(By.id("pool"))).selectByVisibleText("fragile");
    page.awaitLive("fragile");
    submitFromPanel("crash", null);
    // J8: the pool's budget said as the pool's, the slot's own restarts as its own, the job named.
    LivePage.await().atMost(10, SECONDS).until(() -> page.tiles().stream().anyMatch(t ->
        t.getText().contains("reason: REPLACEMENT_UNAVAILABLE")
            && t.getText().contains("the pool's restart budget allows no restarts (maxRestarts 0;")
            && t.getText().contains("itself restarted 0 times); it stopped (CRASH) while running job")
            && "0".equals(t.getAttribute("data-restarts"))));
    LivePage.await().atMost(5, SECONDS).until(() -> {
      List<String> lines = page.logLines();
      return lines.stream().anyMatch(l -> l.contains("BUDGET")
              && l.contains("restart budget refused replacing")
              && l.contains("it stopped (CRASH: ") && l.contains("while running job"))
          && lines.stream().anyMatch(l -> l.contains("RETIRED")
              && l.contains("retired (REPLACEMENT_UNAVAILABLE): the pool's restart budget"));
    });
  }

  @Test
  void J8_the_pool_badge_says_DOWN_with_the_reason_health_gives() {
    open("broken");
    LivePage.await().atMost(10, SECONDS).until(() -> page.tiles().size() == 2 && page.tiles()
        .stream().allMatch(t -> "RETIRED".equals(t.getAttribute("data-phase"))));
    JsonObject health = Http.get(app.url("/health")).json();
    JsonObject broken = health.getJsonArray("checks").stream().map(JsonObject.class::cast)
        .filter(c -> "broken".equals(c.getString("id"))).findFirst().orElseThrow();
    assertThat(broken.getString("status")).isEqualTo("DOWN");
    LivePage.await().atMost(5, SECONDS).untilAsserted(() -> {
      WebElement badge = driver.findElement(By.id("pool-state"));
      assertThat(badge.getText()).isEqualTo("DOWN");
      assertThat(badge.getAttribute("data-health")).isEqualTo("DOWN");
      assertThat(page.js("return document.getElementById('pool-health').textContent"))
          .isEqualTo(broken.getJsonObject("data").getString("reason"));
      assertThat(driver.findElement(By.id("pool-health")).isDisplayed()).isTrue();
    });

    open("jobs");
    LivePage.await().atMost(5, SECONDS).untilAsserted(() -> {
      WebElement badge = driver.findElement(By.id("pool-state"));
      assertThat(badge.getText()).isEqualTo("RUNNING");
      assertThat(badge.getAttribute("data-health")).isEqualTo("UP");
      assertThat(driver.findElement(By.id("pool-health")).isDisplayed()).isFalse();
    });
  }

  @Test
  void event_log_shows_rejections_failures_restarts_and_cancellations_with_timestamps() {
    open("jobs");
    String hang = "log-hang-" + System.nanoTime();
    Http.submit(app, "jobs", new JsonObject().put("job", hang).put("timeoutMs", 1500)
        .put("payload", new JsonObject().put("hang", true)));
    Http.submit(app, "jobs", new JsonObject().put("job", hang)
        .put("payload", new JsonObject().put("echo", "twice")));
    Http.submit(app, "jobs", new JsonObject().put("payload",
        new JsonObject().put("fail", "bad input")));
    Http.submit(app, "jobs", new JsonObject().put("payload", new JsonObject().put("crash", true)));
    Http.delete(app.url("/api/pools/jobs/jobs/" + hang), null);

    LivePage.await().atMost(10, SECONDS).until(() -> {
      List<String> lines = page.logLines();
      return lines.stream().anyMatch(l -> l.contains("job " + hang + " rejected: DUPLICATE_JOB"))
          && lines.stream().anyMatch(l -> l.contains("failed on") && l.contains("bad input"))
          && lines.stream().anyMatch(l -> l.contains("stopped: CRASH"))
          && lines.stream().anyMatch(l -> l.contains("job " + hang + " cancelled"));
    });
    for (String line : page.logLines()) {
      assertThat(line).matches("(?s)^\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\s.*");
    }
  }

  @Test
  void chart_moves_under_load_and_the_backlog_gauge_fills() throws Exception {
    open("jobs");
    AtomicBoolean loading = new AtomicBoolean(true);
    Thread load = new Thread(() -> {
      // Bounded: at most 400 jobs to this test's own server on loopback.
      for (int i = 0; i < 400 && loading.get(); i++) {
        Http.submit(app, "jobs", new JsonObject().put("payload",
            new JsonObject().put("sleepMs", 60).put("echo", i)));
        if (i % 40 == 39) {
          Http.submit(app, "jobs", new JsonObject().put("payload",
              new JsonObject().put("fail", "demo failure")));
        }
        try {
          Thread.sleep(4);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "live-view-load");
    load.start();
    try {
      LivePage.await().atMost(20, SECONDS).until(() ->
          Double.parseDouble(driver.findElement(By.id("chart")).getAttribute("data-peak")) > 5);
      LivePage.await().atMost(10, SECONDS).until(() -> {
        String points = driver.findElement(
            By.cssSelector("#chart polyline[data-series='completed']")).getAttribute("points");
        return points.split(" ").length >= 60 && !allOnBaseline(points);
      });
      LivePage.await().atMost(10, SECONDS).until(() -> Double.parseDouble(
          driver.findElement(By.cssSelector("[data-rate='completed']")).getText()) > 0);
      LivePage.await().atMost(10, SECONDS).until(() -> page.tiles().stream().anyMatch(t ->
          "ASSIGNED".equals(t.getAttribute("data-phase"))));
      Http.submit(app, "jobs", new JsonObject().put("payload",
          new JsonObject().put("crash", true)));
      LivePage.await().atMost(10, SECONDS).until(() -> !driver.findElement(By.id("backlog-text")).getText()
          .startsWith("0 /"));
      LivePage.await().atMost(5, SECONDS).until(() -> page.logLines().stream()
          .anyMatch(l -> l.contains("stopped: CRASH")));
      Path shot = browser.screenshot("live-view");
      assertThat(Files.size(shot)).isPositive();
    } finally {
      loading.set(false);
      load.join();
    }
  }

  private static boolean allOnBaseline(String points) {
    String baseline = null;
    for (String p : points.split(" ")) {
      String y = p.substring(p.indexOf(',') + 1);
      if (baseline == null) {
        baseline = y;
      } else if (!baseline.equals(y)) {
        return false;
      }
    }
    return true;
  }

  @Test
  void rebalance_from_the_control_panel_moves_a_key() {
    open("jobs");
    driver.findElement(By.id("rebalance-key")).sendKeys("customer-7");
    new Select(driver.findElement(By.id("rebalance-worker"))).selectByVisibleText("w-2");
    driver.findElement(By.id("rebalance")).click();
    LivePage.await().atMost(10, SECONDS).until(() -> driver.findElement(By.id("control-result"))
        .getText().equals("key customer-7 now goes to w-2"));
    submitFromPanel("echo", "customer-7");
    LivePage.await().atMost(10, SECONDS).until(() ->
        driver.findElement(By.id("control-result")).getText().startsWith("accepted"));
    JsonObject done = Http.post(app.url("/api/pools/jobs/jobs"),
        new JsonObject().put("key", "customer-7").put("payload", new JsonObject()).encode())
        .json();
    assertThat(done.getString("worker")).isEqualTo("w-2");
  }

  @Test
  void narrow_screen_shows_everything_in_one_column_without_sideways_scrolling()
      throws Exception {
    browser.viewport(420, 900);
    try {
      open("jobs");
      Number overflow = (Number) page.js(
          "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
      assertThat(overflow.intValue()).isLessThanOrEqualTo(0);
      assertThat(page.tiles()).allMatch(WebElement::isDisplayed);
      browser.screenshot("live-view-narrow");
    } finally {
      browser.viewport(1280, 800);
    }
  }

  @Test
  void retirement_reasons_wrap_between_words_never_inside_one_on_a_narrow_screen() {
    browser.viewport(360, 800);
    try {
      open("broken");
      LivePage.await().atMost(10, SECONDS).until(() -> page.tiles().size() == 2 && page.tiles().stream()
          .allMatch(t -> t.getText().contains("its worker failed to start")));
      // Each piece of a reason name between its underscores lies on one line of the tile.
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> pieces = (List<Map<String, Object>>) page.js(
          "return Array.from(document.querySelectorAll('#tiles .reason-name')).flatMap(name =>"
              + "  Array.from(name.childNodes).filter(n => n.nodeType === 3).map(n => {"
              + "    const r = document.createRange(); r.selectNodeContents(n);"
              + "    return {text: n.textContent, lines: r.getClientRects().length,"
              + "      inside: r.getBoundingClientRect().right"
              + "        <= name.closest('li').getBoundingClientRect().right}; }));");
      assertThat(pieces).extracting(p -> p.get("text"))
          .contains("CREATION_", "REJECTED");
      assertThat(pieces).allSatisfy(p -> {
        assertThat(((Number) p.get("lines")).intValue()).as("lines of %s", p.get("text"))
            .isEqualTo(1);
        assertThat(p.get("inside")).as("%s inside its tile", p.get("text")).isEqualTo(true);
      });
      Number overflow = (Number) page.js(
          "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
      assertThat(overflow.intValue()).isLessThanOrEqualTo(0);
    } finally {
      browser.viewport(1280, 800);
    }
  }

  @Test
  void with_a_token_the_control_panel_says_401_until_the_token_is_given() {
    try (WebTestApp own = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("token", "panel-token"), WebTestApp.demoPool("guarded", 1)))) {
      driver.get("about:blank");
      driver.get(own.url("/#pool=guarded"));
      LivePage.await().atMost(15, SECONDS).until(() -> "open".equals(
          driver.findElement(By.id("connection")).getAttribute("data-state")));
      submitFromPanel("echo", null);
      LivePage.await().atMost(10, SECONDS).until(() -> driver.findElement(By.id("control-result"))
          .getText().contains("UNAUTHORIZED"));
      assertThat(Http.get(own.url("/api/pools/guarded")).json().getJsonObject("counters")
          .getLong("accepted")).isZero();

      driver.findElement(By.cssSelector("details.token summary")).click();
      driver.findElement(By.id("token")).sendKeys("panel-token");
      submitFromPanel("echo", null);
      LivePage.await().atMost(10, SECONDS).until(() -> driver.findElement(By.id("control-result"))
          .getText().startsWith("accepted"));
    } finally {
      page.js("sessionStorage.clear()");
    }
  }

  @Test
  void page_reconnects_by_itself_after_the_server_restarts() {
    try (WebTestApp own = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("solo", 2)))) {
      driver.get(own.url("/#pool=solo"));
      LivePage.await().atMost(15, SECONDS).until(() ->
          "1".equals(driver.findElement(By.id("connection")).getAttribute("data-connections"))
              && "open".equals(driver.findElement(By.id("connection")).getAttribute("data-state")));

      own.stop();
      LivePage.await().atMost(10, SECONDS).until(() ->
          !"open".equals(driver.findElement(By.id("connection")).getAttribute("data-state")));
      own.restart();

      LivePage.await().atMost(20, SECONDS).until(() ->
          "2".equals(driver.findElement(By.id("connection")).getAttribute("data-connections"))
              && "open".equals(driver.findElement(By.id("connection")).getAttribute("data-state")));
      assertThat(page.logLines()).anyMatch(l -> l.contains("connection lost"));
      assertThat(page.logLines()).anyMatch(l -> l.contains("reconnected"));
      submitFromPanel("echo", null);
      LivePage.await().atMost(10, SECONDS).until(() -> Integer.parseInt(driver.findElement(
          By.cssSelector("#counters [data-counter='completed'] dd")).getText()) >= 1);
    }
  }
}
