package dev.shepherd.web;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.SplittableRandom;

/**
 * Makes the README's picture of the live view ({@code docs/live-view.png}): the application on
 * loopback under a minute or so of mixed demo load (sleeps, failures, crashes, a hang, bursts
 * past the backlog), photographed in headless Chromium at 1280×800. Not a test; run it by hand:
 * {@code java -cp target/classes:target/test-classes:<deps> dev.shepherd.web.LiveViewScreenshot
 * docs/live-view.png [seconds]}. With {@code incident} as the second argument it photographs an
 * incident instead (J8), as a page opened after it sees it: crashes past the pool's restart
 * budget retire every slot, a burst of rejections follows, then the page opens.
 */
public final class LiveViewScreenshot {
  private LiveViewScreenshot() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/live-view.png");
    if (args.length > 1 && args[1].equals("incident")) {
      incident(out);
      return;
    }
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 75;
    JsonObject jobs = WebTestApp.demoPool("jobs", 4).put("backlogCapacity", 40);
    jobs.getJsonObject("worker").put("maxConcurrency", 2);
    JsonObject broken = WebTestApp.demoPool("broken", 2);
    broken.getJsonObject("worker").put("config", new JsonObject().put("failStart", "always"));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, jobs,
            WebTestApp.demoPool("reports", 2), broken));
        Browser browser = Browser.open()) {
      browser.driver().get(app.url("/#pool=jobs"));
      SplittableRandom random = new SplittableRandom(7);
      long end = System.currentTimeMillis() + seconds * 1000L;
      long start = System.currentTimeMillis();
      int n = 0;
      boolean crashed = false;
      Path shot = null;
      while (shot == null) {
        long left = end - System.currentTimeMillis();
        if (left < 1500 && !crashed) {
          // A last crash, so the picture shows a restart cue and a fresh log line.
          Http.submit(app, "jobs", new JsonObject().put("payload", new JsonObject()
              .put("crash", true)));
          crashed = true;
        }
        if (left < 1100) {
          shot = browser.screenshot("live-view-docs");
        }
        long t = (System.currentTimeMillis() - start) / 1000;
        JsonObject payload = new JsonObject().put("sleepMs", 40 + random.nextInt(160));
        if (n % 47 == 0) {
          payload = new JsonObject().put("fail", "invalid invoice " + n);
        } else if (n % 601 == 300) {
          payload = new JsonObject().put("crash", true);
        }
        Http.submit(app, "jobs", new JsonObject().put("payload", payload));
        if (n == 900) {
          Http.submit(app, "jobs", new JsonObject().put("timeoutMs", 1500)
              .put("payload", new JsonObject().put("hang", true)));
        }
        boolean burst = t % 25 >= 20;
        n++;
        Thread.sleep(burst ? 5 : 14 + random.nextInt(8));
      }
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.copy(shot, out, StandardCopyOption.REPLACE_EXISTING);
      System.out.println("wrote " + out.toAbsolutePath() + " after " + n + " submissions");
    }
  }

  /** J8: every slot retired by the budget, rejections after, and a page opened afterwards. */
  private static void incident(Path out) throws Exception {
    JsonObject jobs = WebTestApp.demoPool("jobs", 4).put("backlogCapacity", 40)
        .put("supervision", new JsonObject().put("maxRestarts", 3).put("restartWindowMs", 60_000));
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null, jobs,
            WebTestApp.demoPool("reports", 2)));
        Browser browser = Browser.open()) {
      SplittableRandom random = new SplittableRandom(11);
      long end = System.currentTimeMillis() + 20_000;
      for (int n = 0; System.currentTimeMillis() < end; n++) {
        Http.submit(app, "jobs", new JsonObject().put("payload", new JsonObject()
            .put("sleepMs", 40 + random.nextInt(120))));
        Thread.sleep(12);
      }
      for (int i = 0; i < 40 && !allRetired(app); i++) {
        Http.submit(app, "jobs", new JsonObject().put("job", "invoice-" + (4711 + i))
            .put("payload", new JsonObject().put("crash", true)));
        Thread.sleep(150);
      }
      for (int i = 0; i < 300; i++) {
        Http.submit(app, "jobs", new JsonObject().put("payload", new JsonObject()
            .put("echo", i)));
      }
      browser.driver().get(app.url("/#pool=jobs"));
      Thread.sleep(3000);
      Path shot = browser.screenshot("live-view-incident");
      Files.createDirectories(out.toAbsolutePath().getParent());
      Files.copy(shot, out, StandardCopyOption.REPLACE_EXISTING);
      System.out.println("wrote " + out.toAbsolutePath());
    }
  }

  private static boolean allRetired(WebTestApp app) {
    return Http.get(app.url("/api/pools/jobs")).json().getJsonArray("slots").stream()
        .map(JsonObject.class::cast).allMatch(s -> "RETIRED".equals(s.getString("phase")));
  }
}
