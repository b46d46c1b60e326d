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
 * docs/live-view.png [seconds]}.
 */
public final class LiveViewScreenshot {
  private LiveViewScreenshot() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/live-view.png");
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
}
