package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * Flow control in the live view (F1, F5 in docs/rules.md), in real headless Chromium against the
 * real application: the groups panel lists the busiest groups with their load and limit, the
 * Pause button pauses the pool and the header says PAUSED since when, and Resume clears it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveViewFlowBrowserTest {
  private Browser browser;
  private ChromeDriver driver;
  private LivePage page;
  private WebTestApp app;

  @BeforeAll
  void start() throws Exception {
    browser = Browser.open();
    driver = browser.driver();
    page = new LivePage(driver);
    app = WebTestApp.start(WebTestApp.config(null, WebTestApp.demoPool("jobs", 2)
        .put("groups", new JsonObject().put("overrides", new JsonObject()
            .put("tenant-a", new JsonObject().put("concurrency", 1))))));
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

  @Test
  void F1_F5_the_groups_panel_and_the_pause_button() throws Exception {
    FlowHttp flow = new FlowHttp(app, "jobs");
    flow.accepted("a1", "tenant-a", null, FlowHttp.HOLD);
    flow.accepted("a2", "tenant-a", null, FlowHttp.HOLD);
    page.open(app.url("/#pool=jobs"), "jobs");

    LivePage.await().atMost(15, SECONDS).until(() ->
        !driver.findElements(By.cssSelector("#groups tr")).isEmpty());
    String row = driver.findElement(By.cssSelector("#groups tr")).getText();
    assertThat(row).contains("tenant-a", "1 running").contains("at its limit");

    driver.findElement(By.id("pause-pool")).click();
    LivePage.await().atMost(15, SECONDS).until(() ->
        driver.findElement(By.id("pool-paused")).isDisplayed());
    assertThat(driver.findElement(By.id("pool-paused")).getText()).startsWith("PAUSED since ");
    assertThat(flow.status().getBoolean("paused")).isTrue();
    assertThat(driver.findElement(By.id("pause-pool")).getText()).isEqualTo("Resume pool");
    browser.screenshot("live-view-flow");

    driver.findElement(By.id("pause-pool")).click();
    LivePage.await().atMost(15, SECONDS).until(() ->
        !driver.findElement(By.id("pool-paused")).isDisplayed());
    assertThat(flow.status().getBoolean("paused")).isFalse();
    flow.cancel("a1");
    flow.cancel("a2");
  }
}
