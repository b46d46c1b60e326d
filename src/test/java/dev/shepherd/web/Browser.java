package dev.shepherd.web;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Debian Chromium driven through Debian's chromedriver: both binaries are given
 * explicitly, so Selenium Manager never runs and nothing is downloaded. Tests that need it are
 * skipped (an assumption with the reason) when either binary is missing.
 */
final class Browser implements AutoCloseable {
  static final String CHROMIUM = System.getProperty("shepherd.chromium", "/usr/bin/chromium");
  static final String CHROMEDRIVER =
      System.getProperty("shepherd.chromedriver", "/usr/bin/chromedriver");

  private final Path profile;
  private final ChromeDriverService service;
  private final ChromeDriver driver;

  /**
   * Selenium looks for a DevTools binding matching this Chromium and warns when it has none;
   * these tests use none. Held in a field: java.util.logging keeps loggers weakly.
   */
  private static final java.util.logging.Logger SELENIUM_LOG = quiet();

  private static java.util.logging.Logger quiet() {
    java.util.logging.Logger log = java.util.logging.Logger.getLogger("org.openqa.selenium");
    log.setLevel(java.util.logging.Level.SEVERE);
    return log;
  }

  private Browser(int width, int height) throws IOException {
    profile = Files.createTempDirectory("shepherd-chromium-");
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
    service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER))
        .usingAnyFreePort()
        .withSilent(true)
        .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--disable-extensions",
        "--disable-default-apps", "--hide-scrollbars", "--force-device-scale-factor=1",
        "--user-data-dir=" + profile, "--window-size=" + width + "," + height);
    driver = new ChromeDriver(service, options);
    viewport(width, height);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
  }

  /** A browser with a window of 1280×800, or a skipped test when Chromium is not installed. */
  static Browser open() throws IOException {
    return open(1280, 800);
  }

  static Browser open(int width, int height) throws IOException {
    assumeTrue(new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute(),
        "headless browser tests need Debian's chromium and chromium-driver ("
            + CHROMIUM + ", " + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver");
    return new Browser(width, height);
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Sets the page's viewport to exactly {@code width}×{@code height} CSS pixels. */
  void viewport(int width, int height) {
    driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width,
        "height", height, "deviceScaleFactor", 1, "mobile", false));
  }

  /** Saves a PNG of the viewport under {@code target/screenshots/}. */
  Path screenshot(String name) throws IOException {
    File shot = driver.getScreenshotAs(OutputType.FILE);
    Path dir = Path.of("target", "screenshots");
    Files.createDirectories(dir);
    Path out = dir.resolve(name + ".png");
    Files.copy(shot.toPath(), out, StandardCopyOption.REPLACE_EXISTING);
    return out;
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      service.stop();
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      } catch (IOException e) {
        // a temporary profile left behind is harmless
      }
    }
  }
}
