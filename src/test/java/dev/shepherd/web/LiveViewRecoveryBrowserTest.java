package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The live view after things went wrong, in headless Chromium against the real application: the
 * Restart button on a retired slot's tile brings it back (S2: a revive, not a restart), with the
 * access token when the server wants one; and a page opened after an incident shows it from the
 * server's history (the retirement in words, the log lines, the chart).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveViewRecoveryBrowserTest {
  private Browser browser;
  private ChromeDriver driver;
  private LivePage page;
  private WebTestApp app;

  @BeforeAll
  void start() throws Exception {
    browser = Browser.open();
    driver = browser.driver();
    page = new LivePage(driver);
    app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("revivable", 2)
        .put("supervision", new JsonObject().put("maxRestarts", 0))));
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

  // ---- helpers --------------------------------------------------------------------------------

  private void open(WebTestApp server, String pool) {
    page.open(server.url("/#pool=" + pool), pool);
  }

  private void submitCrashFromPanel() {
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("job-kind")))
        .selectByValue("crash");
    driver.findElement(By.id("job-key")).clear();
    driver.findElement(By.id("submit-job")).click();
  }

  /** The first tile that is RETIRED and offers its Restart button; its slot id. */
  private String retiredTileWithRestart() {
    String[] found = new String[1];
    LivePage.await().atMost(10, SECONDS).until(() -> {
      for (WebElement t : page.tiles()) {
        if ("RETIRED".equals(t.getAttribute("data-phase"))
            && t.findElement(By.cssSelector("button.restart")).isDisplayed()) {
          found[0] = t.getAttribute("data-slot");
          return true;
        }
      }
      return false;
    });
    return found[0];
  }

  private void awaitBackInService(String slot) {
    LivePage.await().atMost(10, SECONDS).untilAsserted(() -> {
      WebElement t = page.tile(slot);
      assertThat(t.getAttribute("data-phase")).isEqualTo("IDLE");
      assertThat(t.getAttribute("data-incarnation")).isEqualTo("2");
      assertThat(t.findElement(By.cssSelector("button.restart")).isDisplayed()).isFalse();
      assertThat(t.getText()).doesNotContain("reason:");
    });
  }

  @Test
  void S2_restart_on_a_retired_tile_brings_the_slot_back_and_the_log_says_so() {
    open(app, "revivable");
    assertThat(driver.findElements(By.cssSelector("#tiles button.restart")))
        .noneMatch(WebElement::isDisplayed);
    submitCrashFromPanel();
    String retired = retiredTileWithRestart();
    assertThat(page.tiles()).filteredOn(t -> !"RETIRED".equals(t.getAttribute("data-phase")))
        .allSatisfy(t -> assertThat(t.findElement(By.cssSelector("button.restart"))
            .isDisplayed()).isFalse());

    page.tile(retired).findElement(By.cssSelector("button.restart")).click();

    awaitBackInService(retired);
    LivePage.await().atMost(5, SECONDS).until(() -> page.logLines().stream().anyMatch(l ->
        l.contains("REVIVE") && l.contains(retired + " revived as incarnation 2 by an operator")));
    assertThat(driver.findElement(By.id("control-result")).getText())
        .isEqualTo(retired + " is back in service as incarnation 2");
    assertThat(Http.get(app.url("/api/pools/revivable")).json().getJsonObject("counters")
        .getLong("revives")).isEqualTo(1);
  }

  @Test
  void with_a_token_restart_on_a_tile_carries_the_token_field() {
    JsonObject pool = WebTestApp.demoPool("sealed", 2)
        .put("supervision", new JsonObject().put("maxRestarts", 0));
    try (WebTestApp own = WebTestApp.start(WebTestApp.config(
        new JsonObject().put("token", "tile-token"), pool))) {
      Http.post(own.url("/api/pools/sealed/jobs"), "{\"payload\":{\"crash\":true}}",
          "Bearer tile-token");
      open(own, "sealed");
      String retired = retiredTileWithRestart();

      page.tile(retired).findElement(By.cssSelector("button.restart")).click();
      LivePage.await().atMost(10, SECONDS).until(() -> driver.findElement(By.id("control-result"))
          .getText().contains("UNAUTHORIZED"));
      assertThat(page.tile(retired).getAttribute("data-phase")).isEqualTo("RETIRED");

      driver.findElement(By.cssSelector("details.token summary")).click();
      driver.findElement(By.id("token")).sendKeys("tile-token");
      LivePage.await().atMost(5, SECONDS).until(() ->
          page.tile(retired).findElement(By.cssSelector("button.restart")).isEnabled());
      page.tile(retired).findElement(By.cssSelector("button.restart")).click();
      awaitBackInService(retired);
    } finally {
      page.js("sessionStorage.clear()");
    }
  }

  @Test
  void a_page_opened_after_an_incident_shows_it_from_the_servers_history() throws Exception {
    JsonObject pool = WebTestApp.demoPool("incident", 2)
        .put("supervision", new JsonObject().put("maxRestarts", 1));
    try (WebTestApp own = WebTestApp.start(WebTestApp.config(null, pool))) {
      // Before any page is open: some work, then crashes past the budget.
      for (int i = 0; i < 30; i++) {
        assertThat(Http.post(own.url("/api/pools/incident/jobs"),
            "{\"payload\":{\"echo\":" + i + "}}").status()).isEqualTo(200);
      }
      String[] retired = new String[1];
      LivePage.await().atMost(20, SECONDS).until(() -> {
        Http.post(own.url("/api/pools/incident/jobs"), "{\"payload\":{\"crash\":true}}");
        for (Object o : Http.get(own.url("/api/pools/incident")).json().getJsonArray("slots")) {
          JsonObject slot = (JsonObject) o;
          if ("RETIRED".equals(slot.getString("phase"))) {
            retired[0] = slot.getString("id");
            return true;
          }
        }
        return false;
      });

      open(own, "incident");

      LivePage.await().atMost(15, SECONDS).untilAsserted(() -> {
        String budget = "the pool's restart budget is spent (1 of 1 restart in the last 10 s"
            + " across all slots; " + retired[0] + " itself restarted ";
        assertThat(page.tile(retired[0]).getText()).contains("reason: REPLACEMENT_UNAVAILABLE",
            budget, "it stopped (CRASH) while running job");
        List<String> lines = page.logLines();
        assertThat(lines).anyMatch(l -> l.contains("lines below happened before this connection"));
        assertThat(lines).anyMatch(l -> l.contains("stopped: CRASH")
            && l.contains("crash requested by job"));
        assertThat(lines).anyMatch(l -> l.contains("restart budget refused replacing "
            + retired[0] + ": " + budget));
        assertThat(lines).anyMatch(l -> l.contains(retired[0]
            + " retired (REPLACEMENT_UNAVAILABLE): " + budget)
            && l.contains("it stopped (CRASH: ") && l.contains("while running job"));
        assertThat(lines).anyMatch(l -> l.contains("interrupted: " + retired[0]
            + " stopped (CRASH)"));
        assertThat(Double.parseDouble(driver.findElement(By.id("chart"))
            .getAttribute("data-peak"))).as("completed per second, from the recorded series")
            .isGreaterThanOrEqualTo(1);
      });
      browser.screenshot("live-view-after-an-incident");
    }
  }
}
