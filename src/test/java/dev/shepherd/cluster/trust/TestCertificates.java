package dev.shepherd.cluster.trust;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made at run time for the tests of the event bus's TLS, never committed: {@code
 * docker/certs/make-test-certs.sh} (keytool of this JVM's JDK) makes a CA with a trust store and
 * {@link #NODES} node key stores it signed, and keytool a {@code rogue} key store with a
 * self-signed certificate; once per test JVM, into a temporary directory under {@code target/}.
 * Every store's password is {@link #PASSWORD}.
 */
public final class TestCertificates {
  public static final String PASSWORD = "test-only-password";
  /** The nodes a CA-signed key store is made for. */
  public static final List<String> NODES = List.of("node-a", "node-b", "node-c");
  private static Path dir;

  private TestCertificates() {}

  /** The directory of the stores, made on first use. */
  public static synchronized Path dir() {
    if (dir == null) {
      try {
        Path base = Path.of("target", "test-certs");
        Files.createDirectories(base);
        Path made = Files.createTempDirectory(base, "certs").toAbsolutePath();
        List<String> command = new java.util.ArrayList<>(List.of("sh",
            Path.of("docker", "certs", "make-test-certs.sh").toAbsolutePath().toString(),
            made.toString()));
        command.addAll(NODES);
        run(command, made);
        run(List.of(keytool(), "-genkeypair", "-alias", "rogue", "-keyalg", "EC", "-groupname",
            "secp256r1", "-validity", "2", "-dname", "CN=rogue", "-storetype", "PKCS12",
            "-keystore", made.resolve("rogue.p12").toString(), "-storepass", PASSWORD), made);
        dir = made;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return dir;
  }

  /** The trust store with the CA's certificate. */
  public static Path trustStore() {
    return dir().resolve("truststore.p12");
  }

  /** The CA-signed key store of {@code node} (one of {@link #NODES}). */
  public static Path keyStore(String node) {
    return dir().resolve(node + ".p12");
  }

  /** A key store with a certificate no CA signed. */
  public static Path rogueKeyStore() {
    return dir().resolve("rogue.p12");
  }

  /** The environment of a node with the CA-signed store of {@code node}. */
  public static java.util.Map<String, String> env(String node) {
    return java.util.Map.of(EventBusTls.KEYSTORE, keyStore(node).toString(),
        EventBusTls.KEYSTORE_PASSWORD, PASSWORD,
        EventBusTls.TRUSTSTORE, trustStore().toString(),
        EventBusTls.TRUSTSTORE_PASSWORD, PASSWORD);
  }

  private static String keytool() {
    return Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
  }

  private static void run(List<String> command, Path dir) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("PASSWORD", PASSWORD);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("DAYS", "2");
    Process process = builder.start();
    try {
      String output = new String(process.getInputStream().readAllBytes(),
          StandardCharsets.UTF_8);
      if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " failed in " + dir + ": "
            + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
