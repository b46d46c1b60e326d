package dev.shepherd.web;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The live view's dead-letter panel (J5) and backlog gauge (J3, J4) in headless Chromium: first
 * against stand-in routes that answer as the pool's HTTP API does and check each request with the
 * server's own same-origin rule ({@link SameOrigin}); then against the pool's real routes, once
 * they are on the branch (the test says it skipped, and why, until they are).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveViewDeadLettersBrowserTest {
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

  // ---- the stand-in -------------------------------------------------------------------------

  /** A request the page made to a dead-letter route, and what the server's rule said of it. */
  record Seen(String method, String path, String body, String contentType, String authorization,
      String origin, String refusal) {}

  /** Dead-letter routes of pool {@code jobs}, answering as the HTTP API's contract says. */
  static final class DeadRoutes {
    final List<JsonObject> entries = new CopyOnWriteArrayList<>();
    final List<Seen> seen = new CopyOnWriteArrayList<>();
    final AtomicInteger port = new AtomicInteger();
    private final SameOrigin sameOrigin =
        new SameOrigin(AllowedHosts.of("127.0.0.1", List.of()), port::get);

    void mount(Router router) {
      String base = "/api/pools/jobs/dead";
      router.get(base).handler(ctx -> {
        record(ctx);
        ctx.json(new JsonObject().put("pool", "jobs").put("size", entries.size())
            .put("evicted", 4).put("offset", 0).put("limit", 20)
            .put("entries", new JsonArray(new ArrayList<>(entries))));
      });
      router.post(base + "/:job/replay").handler(BodyHandler.create()).handler(ctx -> {
        record(ctx);
        String job = ctx.pathParam("job");
        if (remove(job)) {
          ctx.json(new JsonObject().put("type", "accepted").put("job", job));
        } else {
          unknown(ctx, job);
        }
      });
      router.delete(base + "/:job").handler(ctx -> {
        record(ctx);
        String job = ctx.pathParam("job");
        if (remove(job)) {
          ctx.json(new JsonObject().put("job", job).put("discarded", true));
        } else {
          unknown(ctx, job);
        }
      });
    }

    private boolean remove(String job) {
      return entries.removeIf(e -> job.equals(e.getString("job")));
    }

    private static void unknown(RoutingContext ctx, String job) {
      ctx.response().setStatusCode(404);
      ctx.json(new JsonObject().put("error", "UNKNOWN_JOB").put("message", "job: " + job
          + " is not in the dead-letter set"));
    }

    private void record(RoutingContext ctx) {
      seen.add(new Seen(ctx.request().method().name(), ctx.request().path(),
          ctx.body() == null || ctx.body().buffer() == null ? null : ctx.body().asString(),
          ctx.request().getHeader("Content-Type"), ctx.request().getHeader("Authorization"),
          ctx.request().getHeader("Origin"), sameOrigin.refusal(ctx.request())));
    }

    List<Seen> changes() {
      return seen.stream().filter(s -> !s.method().equals("GET")).toList();
    }
  }

  private static JsonObject entry(String job, String reason, long at) {
    JsonArray attempts = new JsonArray();
    for (int i = 1; i <= 2; i++) {
      attempts.add(new JsonObject().put("attempt", i).put("worker", "w-" + i)
          .put("incarnation", i).put("startedAt", at - 2000).put("endedAt", at - 1000)
          .put("ended", "CRASH").put("detail", "crash requested by job " + job));
    }
    return new JsonObject().put("job", job).put("key", null).put("reason", reason)
        .put("payload", new JsonObject().put("crash", true)).put("bytes", 40)
        .put("timeoutMs", 30_000).put("attempts", attempts)
        .put("answer", new JsonObject().put("type", "interrupted").put("job", job)
            .put("attempts", 2).put("reason", new JsonObject().put("kind", reason)))
        .put("at", at);
  }

  private static JsonObject snapshot(int deadLetters, long now) {
    JsonObject counters = new JsonObject();
    for (String k : List.of("accepted", "rejected", "completed", "failed", "interrupted",
        "cancelled", "retried", "restarts", "staleCompletions", "budgetRefusals", "poisoned",
        "deadLettered", "deadLetterEvicted")) {
      counters.put(k, 0);
    }
    JsonArray slots = new JsonArray();
    for (int i = 0; i < 2; i++) {
      slots.add(new JsonObject().put("id", "w-" + i).put("phase", "IDLE").put("capacity", 1)
          .put("inFlight", 0).put("assignments", new JsonArray()).put("incarnation", 1)
          .put("restarts", 0).put("retirement", null).put("backoffUntil", null));
    }
    return new JsonObject().put("type", "snapshot").put("pool", "jobs").put("at", now)
        .put("snapshot", new JsonObject().put("name", "jobs").put("state", "RUNNING")
            .put("backlog", new JsonObject().put("length", 5).put("capacity", 100)
                .put("waiting", 3).put("nextDue", now + 60_000))
            .put("deadLetters", deadLetters).put("slots", slots).put("hosts", new JsonArray())
            .put("counters", counters).put("budget", new JsonObject()
                .put("restartsInWindow", 0).put("maxRestarts", 5).put("windowMs", 10_000)));
  }

  private List<WebElement> rows() {
    return driver.findElements(By.cssSelector("#dead-list li"));
  }

  private WebElement row(String job) {
    return driver.findElement(By.cssSelector("#dead-list li[data-job='" + job + "']"));
  }

  /** Clicks {@code selector} in {@code job}'s row, found again if the list was drawn anew. */
  private void clickIn(String job, String selector) {
    LivePage.await().atMost(5, SECONDS).ignoreException(StaleElementReferenceException.class)
        .until(() -> {
          row(job).findElement(By.cssSelector(selector)).click();
          return true;
        });
  }

  @SuppressWarnings("unchecked")
  private List<String> rowJobs() {
    return (List<String>) page.js("return Array.from(document.querySelectorAll('#dead-list li'))"
        + ".map(li => li.dataset.job);");
  }

  private String text(String id) {
    return driver.findElement(By.id(id)).getText();
  }

  // ---- against the stand-in -----------------------------------------------------------------

  @Test
  void J5_the_panel_lists_replays_and_discards_with_requests_the_server_lets_through()
      throws Exception {
    long now = System.currentTimeMillis();
    DeadRoutes routes = new DeadRoutes();
    routes.entries.add(entry("p-1", "POISON", now - 5000));
    routes.entries.add(entry("f-2", "FAILED", now - 9000));
    try (ScriptedStream stream = ScriptedStream.start("jobs", List.of(snapshot(2, now)),
        routes::mount)) {
      routes.port.set(Integer.parseInt(stream.url("").replaceAll(".*:(\\d+)$", "$1")));
      page.open(stream.url("/#pool=jobs"), null);

      LivePage.await().atMost(10, SECONDS).untilAsserted(() -> {
        assertThat(rowJobs()).containsExactly("p-1", "f-2");
        assertThat(row("p-1").getText()).contains("p-1", "POISON",
            "2 attempts · last on w-2 (CRASH)");
        assertThat(row("f-2").getText()).contains("FAILED");
        assertThat(text("dead-count")).isEqualTo("2");
        assertThat(text("dead-hint")).isEqualTo("2 jobs kept; 4 evicted to make room");
        assertThat(driver.findElement(By.id("dead-empty")).isDisplayed()).isFalse();
      });
      assertThat(routes.seen).first().satisfies(s -> {
        assertThat(s.path()).isEqualTo("/api/pools/jobs/dead");
        assertThat(s.refusal()).isNull();
      });
      // J3, J4: waiting jobs apart from ready ones, in the same bound.
      assertThat(text("backlog-text")).isEqualTo("5 / 100");
      assertThat(text("backlog-detail")).startsWith("2 ready · 3 waiting, the next due at ");
      assertThat(driver.findElement(By.id("backlog")).getAttribute("aria-valuetext"))
          .isEqualTo("5 of 100 jobs: 2 ready, 3 waiting for their due time");

      driver.findElement(By.cssSelector("details.token summary")).click();
      driver.findElement(By.id("token")).sendKeys("dead-token");
      row("p-1").findElement(By.cssSelector("button.replay")).click();
      LivePage.await().atMost(5, SECONDS).until(() ->
          text("dead-result").equals("job p-1 replayed: accepted again"));
      LivePage.await().atMost(5, SECONDS).until(() -> rowJobs().equals(List.of("f-2")));

      WebElement discard = row("f-2").findElement(By.cssSelector("button.discard"));
      discard.click();
      assertThat(discard.getText()).isEqualTo("Discard?");
      assertThat(routes.changes()).hasSize(1); // the first click only arms it
      discard.click();
      LivePage.await().atMost(5, SECONDS).until(() ->
          text("dead-result").equals("job f-2 discarded"));
      LivePage.await().atMost(5, SECONDS).until(() -> rows().isEmpty()
          && driver.findElement(By.id("dead-empty")).isDisplayed());

      List<Seen> changes = routes.changes();
      assertThat(changes).extracting(Seen::method, Seen::path).containsExactly(
          org.assertj.core.groups.Tuple.tuple("POST", "/api/pools/jobs/dead/p-1/replay"),
          org.assertj.core.groups.Tuple.tuple("DELETE", "/api/pools/jobs/dead/f-2"));
      assertThat(changes.get(0).body()).isEqualTo("{}");
      assertThat(changes.get(0).contentType()).isEqualTo("application/json");
      for (Seen s : changes) {
        assertThat(s.origin()).as("the browser names the page's origin")
            .isEqualTo(stream.url(""));
        assertThat(s.refusal()).as("SameOrigin lets the page's own requests through").isNull();
        assertThat(s.authorization()).isEqualTo("Bearer dead-token");
      }

      // A dead letter arrives: the event makes the panel read the list again.
      routes.entries.add(entry("p-3", "POISON", now + 1000));
      stream.send(new JsonObject().put("type", "deadLettered").put("pool", "jobs")
          .put("at", now + 1000).put("job", "p-3").put("reason", "POISON").put("worker", "w-1")
          .put("attempts", 2).put("size", 1));
      LivePage.await().atMost(5, SECONDS).untilAsserted(() -> {
        assertThat(rowJobs()).containsExactly("p-3");
        assertThat(text("dead-count")).isEqualTo("1");
        assertThat(page.logLines()).anyMatch(l -> l.contains("DEAD LETTER")
            && l.contains("job p-3 kept in the dead-letter set (POISON after 2 attempts, the"
                + " last on w-1); 1 kept"));
      });
      browser.screenshot("live-view-dead-letters");
    } finally {
      page.js("sessionStorage.clear()");
    }
  }

  @Test
  void J5_a_server_without_the_dead_letter_routes_is_said_plainly() throws Exception {
    try (ScriptedStream stream = ScriptedStream.start("jobs",
        List.of(snapshot(0, System.currentTimeMillis())))) {
      page.open(stream.url("/#pool=jobs"), null);
      LivePage.await().atMost(10, SECONDS).until(() -> text("dead-hint")
          .startsWith("dead letters: "));
      assertThat(rows()).isEmpty();
    }
  }

  // ---- against the pool's own routes (helper B's, with the configuration of helper C) --------

  /**
   * Runs once the pool's dead-letter routes are on the branch ({@code GET /api/pools/<name>/dead}
   * answers; until then, skipped saying so) and the pool configuration reads {@code
   * poisonAfter}: two jobs that crash their worker twice are poisoned and listed; Replay submits
   * one again; Discard (two clicks) removes the other for good.
   */
  /** The application with {@code pool}, or a skipped test when its configuration is older. */
  private static WebTestApp startReadingPoisonAfter(JsonObject pool) {
    try {
      return WebTestApp.start(WebTestApp.config(null, pool));
    } catch (IllegalStateException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        assumeTrue(t.getMessage() == null || !t.getMessage().contains("poisonAfter"),
            "the pool configuration does not read poisonAfter on this branch yet: " + t);
      }
      throw e;
    }
  }

  @Test
  void J5_replay_and_discard_from_the_panel_on_the_pools_own_routes() throws Exception {
    try (WebTestApp probe = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("probe", 1)))) {
      Http.Response r = Http.get(probe.url("/api/pools/probe/dead"));
      assumeTrue(!(r.status() == 404 && r.body().contains("\"NOT_FOUND\"")),
          "the dead-letter routes (GET /api/pools/<name>/dead …) are not on this branch yet");
    }
    JsonObject pool = WebTestApp.demoPool("deadly", 2).put("interruption", "RETRY")
        .put("maxAttempts", 5).put("poisonAfter", 2);
    try (WebTestApp app = startReadingPoisonAfter(pool)) {
      page.open(app.url("/#pool=deadly"), "deadly");
      for (String job : List.of("poison-a", "poison-b")) {
        assertThat(Http.submit(app, "deadly", new JsonObject().put("job", job)
            .put("payload", new JsonObject().put("crash", true))).getString("type"))
            .isEqualTo("accepted");
      }
      LivePage.await().atMost(30, SECONDS).untilAsserted(() -> {
        assertThat(rowJobs()).containsExactlyInAnyOrder("poison-a", "poison-b");
        assertThat(row("poison-a").getText()).contains("POISON", "2 attempts", "(CRASH)");
        assertThat(text("dead-count")).isEqualTo("2");
        assertThat(page.logLines()).anyMatch(l -> l.contains("job poison-a is poison"));
      });

      clickIn("poison-a", "button.replay");
      // The admission names the job submitted again (its id is the route's to choose).
      LivePage.await().atMost(10, SECONDS).until(() ->
          text("dead-result").matches("job \\S+ replayed: accepted again"));
      LivePage.await().atMost(10, SECONDS).until(() -> page.logLines().stream().anyMatch(l ->
          l.contains("job poison-a replayed from the dead-letter set")));

      // The live list is drawn again as the replayed job fails (the armed state survives it):
      // each click finds the button anew.
      clickIn("poison-b", "button.discard");
      LivePage.await().atMost(5, SECONDS).ignoreException(StaleElementReferenceException.class)
          .until(() -> row("poison-b").findElement(By.cssSelector("button.discard")).getText()
              .equals("Discard?"));
      clickIn("poison-b", "button.discard");
      LivePage.await().atMost(10, SECONDS).until(() ->
          text("dead-result").equals("job poison-b discarded"));
      LivePage.await().atMost(10, SECONDS).until(() -> !rowJobs().contains("poison-b"));
      assertThat(Http.get(app.url("/api/pools/deadly/dead/poison-b")).status()).isEqualTo(404);
      // The replayed job crashes twice again and is kept again; the count follows the list.
      LivePage.await().atMost(30, SECONDS).until(() -> rowJobs().size() == 1
          && !rowJobs().contains("poison-b") && text("dead-count").equals("1"));
      browser.screenshot("live-view-dead-letters-real");
    }
  }
}
