package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;

import java.util.List;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/** The live view as the browser tests read it: opening a pool's page, its tiles and its log. */
final class LivePage {
  private final ChromeDriver driver;

  LivePage(ChromeDriver driver) {
    this.driver = driver;
  }

  /** Waiting that tolerates the page re-rendering an element between finding and reading it. */
  static ConditionFactory await() {
    return Awaitility.await().ignoreException(StaleElementReferenceException.class);
  }

  /**
   * Loads {@code url} afresh and waits until the page is live and shows tiles (and, when
   * {@code pool} is not null, says it is connected to that pool).
   */
  void open(String url, String pool) {
    driver.get("about:blank");
    driver.get(url);
    awaitLive(pool);
  }

  /** Waits until the connection is open (to {@code pool}, when not null) and tiles are shown. */
  void awaitLive(String pool) {
    await().atMost(20, SECONDS).until(() -> {
      WebElement c = driver.findElement(By.id("connection"));
      return "open".equals(c.getAttribute("data-state"))
          && (pool == null || c.getText().contains(pool))
          && !driver.findElements(By.cssSelector("#tiles li")).isEmpty();
    });
  }

  List<WebElement> tiles() {
    return driver.findElements(By.cssSelector("#tiles li.tile"));
  }

  WebElement tile(String slot) {
    return driver.findElement(By.cssSelector("#tiles li[data-slot='" + slot + "']"));
  }

  /** The event log's lines, read in one script so a re-render cannot leave a stale element. */
  @SuppressWarnings("unchecked")
  List<String> logLines() {
    return (List<String>) js("return Array.from(document.querySelectorAll('#log li'))"
        + ".map(li => li.innerText);");
  }

  Object js(String script, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(script, args);
  }
}
