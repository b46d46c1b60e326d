package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The live view in headless Chromium against a scripted event stream ({@link ScriptedStream}):
 * frames of section 8.4 (slots on hosts, a LOST host, retirement HOST_LOST) and the history frame
 * sent after the snapshot, which the page understands before the server sends them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveViewScriptedStreamTest {
  private Browser browser;
  private ChromeDriver driver;
  private LivePage page;

  @BeforeAll
  void start() throws Exception {
    browser = Browser.open();
    driver = browser.driver();
    page = new LivePage(driver);
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.close();
    }
  }

  // ---- frames ---------------------------------------------------------------------------------

  private static JsonObject slot(String id, String host, String phase) {
    return new JsonObject().put("id", id).put("phase", phase).put("capacity", 2)
        .put("inFlight", 0).put("assignments", new JsonArray()).put("incarnation", 1)
        .put("restarts", 0).put("retirement", null).put("backoffUntil", null).put("host", host);
  }

  private static JsonObject host(String id, String state, long since) {
    return new JsonObject().put("id", id).put("node", "node-" + id).put("state", state)
        .put("slots", 2).put("since", since);
  }

  private static JsonObject snapshot(List<JsonObject> slots, List<JsonObject> hosts) {
    JsonObject counters = new JsonObject();
    for (String k : List.of("accepted", "rejected", "completed", "failed", "interrupted",
        "cancelled", "retried", "restarts", "staleCompletions", "budgetRefusals")) {
      counters.put(k, 0);
    }
    return new JsonObject().put("name", "jobs").put("state", "RUNNING")
        .put("backlog", new JsonObject().put("length", 0).put("capacity", 100))
        .put("slots", new JsonArray(new ArrayList<>(slots)))
        .put("hosts", new JsonArray(new ArrayList<>(hosts)))
        .put("counters", counters)
        .put("budget", new JsonObject().put("restartsInWindow", 0).put("maxRestarts", 5)
            .put("windowMs", 10_000));
  }

  private static JsonObject frame(String type, long at) {
    return new JsonObject().put("type", type).put("pool", "jobs").put("at", at);
  }

  // ---- helpers --------------------------------------------------------------------------------

  private void open(ScriptedStream stream) {
    page.open(stream.url("/#pool=jobs"), null);
  }

  private WebElement group(String host) {
    return driver.findElement(By.cssSelector("#tiles .host-group[data-host='" + host + "']"));
  }

  // ---- tests ----------------------------------------------------------------------------------

  @Test
  void H5_slots_group_by_host_local_first_and_a_lost_host_is_shown_plainly() throws Exception {
    long now = System.currentTimeMillis();
    List<JsonObject> slots = List.of(slot("w-0", null, "IDLE"), slot("w-1", null, "IDLE"),
        slot("h1/w-0", "h1", "IDLE"), slot("h1/w-1", "h1", "IDLE"),
        slot("h2/w-0", "h2", "LOST"), slot("h2/w-1", "h2", "LOST"));
    List<JsonObject> hosts = List.of(host("h1", "UP", now - 60_000),
        host("h2", "LOST", now - 4_000));
    try (ScriptedStream stream = ScriptedStream.start("jobs",
        List.of(frame("snapshot", now).put("snapshot", snapshot(slots, hosts))))) {
      open(stream);
      LivePage.await().untilAsserted(() -> {
        assertThat(driver.findElements(By.cssSelector("#tiles .host-group")))
            .extracting(g -> g.getAttribute("data-host")).containsExactly("", "h1", "h2");
        assertThat(group("").getText()).contains("local", "coordinator's node");
        assertThat(group("h1").getAttribute("data-lost")).isEqualTo("false");
        assertThat(group("h1").getText()).contains("host h1", "UP", "node node-h1");
        assertThat(group("h2").getAttribute("data-lost")).isEqualTo("true");
        assertThat(group("h2").getText()).containsPattern("LOST since \\d\\d:\\d\\d:\\d\\d");
        assertThat(page.tile("h2/w-0").getAttribute("data-phase")).isEqualTo("LOST");
        assertThat(page.tile("h2/w-0").getText()).contains("LOST", "out of reach",
            "host h2 unreachable since");
        assertThat(driver.findElement(By.id("legend-lost")).isDisplayed()).isTrue();
      });
      browser.screenshot("live-view-hosts");

      // h1 drops out: its slots turn LOST at once, the next stats say the host is LOST.
      stream.send(frame("phase", now + 1000).put("worker", "h1/w-0").put("phase", "LOST")
          .put("incarnation", 1).put("backoffUntil", null).put("retirement", null));
      stream.send(frame("phase", now + 1000).put("worker", "h1/w-1").put("phase", "LOST")
          .put("incarnation", 1).put("backoffUntil", null).put("retirement", null));
      stream.send(new JsonObject().put("type", "a-frame-from-the-future").put("pool", "jobs"));
      LivePage.await().until(() -> "true".equals(group("h1").getAttribute("data-lost"))
          && page.logLines().stream().anyMatch(l -> l.contains("h1/w-1 lost: host h1 is unreachable")));

      // h2 stays lost past its grace period: its slots retire HOST_LOST, saying why.
      stream.send(frame("retired", now + 30_000).put("worker", "h2/w-0").put("phase", "RETIRED")
          .put("incarnation", 1).put("backoffUntil", null).put("retirement", "HOST_LOST"));
      LivePage.await().untilAsserted(() -> {
        assertThat(page.tile("h2/w-0").getAttribute("data-phase")).isEqualTo("RETIRED");
        assertThat(page.tile("h2/w-0").getText()).contains("reason: HOST_LOST",
            "host h2 stayed lost past the grace period");
        assertThat(page.tile("h2/w-0").findElement(By.cssSelector("button.restart")).isDisplayed())
            .as("a slot retired HOST_LOST comes back with its host, not by an operator")
            .isFalse();
      });
    }
  }

  @Test
  void a_page_opened_after_an_incident_shows_it_from_the_history_frame() throws Exception {
    long now = System.currentTimeMillis();
    long incident = now - 40_000;
    JsonObject retiredSlot = slot("w-0", null, "RETIRED").put("incarnation", 6)
        .put("restarts", 5).put("retirement", "REPLACEMENT_UNAVAILABLE");
    JsonObject snapshot = snapshot(List.of(retiredSlot, slot("w-1", null, "IDLE")), List.of());
    JsonArray events = new JsonArray()
        .add(frame("restart", incident - 2000).put("worker", "w-0").put("exit", "CRASH")
            .put("cause", "boom").put("replaced", new JsonArray().add("w-0")).put("delayMs", 0))
        .add(frame("budget", incident).put("worker", "w-0").put("restartsInWindow", 5)
            .put("replacementsRequested", 1).put("maximumRestarts", 5)
            .put("reaction", "RETIRE_WORKER").put("exit", "CRASH").put("cause", "boom")
            .put("jobs", new JsonArray().add("job-17")).put("slotRestarts", 5))
        .add(frame("retired", incident).put("worker", "w-0").put("phase", "RETIRED")
            .put("incarnation", 6).put("backoffUntil", null)
            .put("retirement", "REPLACEMENT_UNAVAILABLE"))
        .add(frame("job", incident).put("outcome", new JsonObject().put("type", "interrupted")
            .put("job", "job-17").put("attempts", 1).put("reason", new JsonObject()
                .put("kind", "WORKER_STOPPED").put("worker", "w-0").put("exit", "CRASH"))));
    JsonArray series = new JsonArray();
    long second = now / 1000 * 1000;
    for (int i = 50; i >= 1; i--) {
      series.add(new JsonObject().put("at", second - i * 1000L).put("completed", 20 + i % 7)
          .put("failed", i % 10 == 0 ? 3 : 0).put("interrupted", i == 40 ? 1 : 0)
          .put("rejected", 0));
    }
    JsonObject history = frame("history", now).put("events", events).put("series", series)
        .put("lastExits", new JsonObject().put("w-1", new JsonObject().put("exit", "TIMEOUT")
            .put("cause", null).put("at", incident - 10_000)));
    try (ScriptedStream stream = ScriptedStream.start("jobs",
        List.of(frame("snapshot", now).put("snapshot", snapshot), history))) {
      open(stream);
      LivePage.await().untilAsserted(() -> {
        assertThat(page.tile("w-0").getText()).contains("reason: REPLACEMENT_UNAVAILABLE",
            "the pool's restart budget is spent (5 of 5 restarts in the last 10 s across all"
                + " slots; w-0 itself restarted 5 times); it stopped (CRASH) while running job"
                + " job-17");
        assertThat(page.tile("w-1").getText()).contains("last exit: TIMEOUT");
        assertThat(page.tile("w-0").findElement(By.cssSelector("button.restart")).isDisplayed())
            .isTrue();
        assertThat(page.tile("w-1").findElement(By.cssSelector("button.restart")).isDisplayed())
            .isFalse();
        List<String> lines = page.logLines();
        assertThat(lines).anyMatch(l -> l.contains("the 4 lines below happened before this"
            + " connection"));
        assertThat(lines).anyMatch(l -> l.contains("w-0 retired (REPLACEMENT_UNAVAILABLE): the"
            + " pool's restart budget is spent (5 of 5 restarts in the last 10 s across all slots;"
            + " w-0 itself restarted 5 times); it stopped (CRASH: boom) while running job job-17"));
        assertThat(lines).anyMatch(l -> l.contains("w-0 stopped: CRASH (boom); replacing w-0"));
        assertThat(Double.parseDouble(driver.findElement(By.id("chart"))
            .getAttribute("data-peak"))).isGreaterThanOrEqualTo(20);
      });
      browser.screenshot("live-view-history");
    }
  }

  private static JsonObject ha(boolean available, String active, int term) {
    return new JsonObject().put("enabled", true).put("available", available)
        .put("active", active).put("term", term);
  }

  @Test
  void an_ha_pool_shows_its_coordinator_and_term_and_a_failover_as_it_happens()
      throws Exception {
    long now = System.currentTimeMillis();
    String nodeA = "3f2a9c1e-7b44-4e1a-9d0b-1c2d3e4f5a6b";
    String nodeB = "b7c81d02-aa19-4b7e-8a55-0f1e2d3c4b5a";
    List<JsonObject> slots = List.of(slot("w-0", null, "IDLE"), slot("h1/w-0", "h1", "IDLE"));
    List<JsonObject> hosts = List.of(host("h1", "UP", now - 60_000));
    try (ScriptedStream stream = ScriptedStream.start("jobs", List.of(frame("snapshot", now)
        .put("snapshot", snapshot(slots, hosts).put("ha", ha(true, nodeA, 3)))))) {
      open(stream);
      WebElement badge = driver.findElement(By.id("pool-ha"));
      WebElement notice = driver.findElement(By.id("failover"));
      LivePage.await().until(() -> badge.isDisplayed()
          && badge.getText().equals("HA · active 3f2a9c1e · term 3"));
      assertThat(badge.getAttribute("title")).contains(nodeA);
      assertThat(notice.isDisplayed()).isFalse();

      // The active node dies; the next stats come from the new leader, one term later.
      stream.send(frame("stats", now + 2000)
          .put("snapshot", snapshot(slots, hosts).put("ha", ha(true, nodeB, 4))));
      LivePage.await().until(() -> notice.isDisplayed()
          && notice.getText().equals("failover: term 3 → 4, now b7c81d02"));
      assertThat(badge.getText()).isEqualTo("HA · active b7c81d02 · term 4");
      assertThat(page.logLines()).anyMatch(l -> l.contains("failover: term 3 → 4, now b7c81d02"));
      browser.screenshot("live-view-failover");

      // A member more leaves: no majority, and the header says so.
      stream.send(frame("stats", now + 4000)
          .put("snapshot", snapshot(slots, hosts).put("ha", ha(false, nodeB, 4))));
      LivePage.await().until(() -> badge.getText().equals("HA unavailable · active b7c81d02 · term 4")
          && "false".equals(badge.getAttribute("data-available")));
      browser.screenshot("live-view-ha-unavailable");
    }
  }
}
