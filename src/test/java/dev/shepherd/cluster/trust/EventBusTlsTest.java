package dev.shepherd.cluster.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.ConfigException;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event bus's TLS as the environment (or a library user) asks for it (docs/security.md):
 * mutual or nothing, never "trust all", and a store that does not open is a start failure naming
 * the variable and the file, never the password.
 */
class EventBusTlsTest {
  @TempDir
  Path temp;

  private static Map<String, String> good() {
    return new HashMap<>(TestCertificates.env("node-a"));
  }

  private static ConfigException refused(Map<String, String> env) {
    try {
      EventBusTls.fromEnvironment(env);
    } catch (ConfigException e) {
      assertThat(e.getMessage()).doesNotContain(TestCertificates.PASSWORD);
      return e;
    }
    throw new AssertionError("accepted " + env);
  }

  @Test
  void no_store_set_is_tls_off() {
    assertThat(EventBusTls.fromEnvironment(Map.of())).isNull();
    assertThat(EventBusTls.fromEnvironment(Map.of(EventBusTls.KEYSTORE, " ",
        EventBusTls.KEYSTORE_PASSWORD, "x"))).isNull();
  }

  @Test
  void ca_signed_stores_turn_on_mutual_tls_and_never_trust_all() {
    EventBusTls tls = EventBusTls.fromEnvironment(good());

    EventBusOptions options = tls.applyTo(new EventBusOptions());
    assertThat(options.isSsl()).isTrue();
    assertThat(options.isTrustAll()).isFalse();
    assertThat(options.getClientAuth()).isEqualTo(ClientAuth.REQUIRED);
    assertThat(options.getKeyCertOptions()).isNotNull();
    assertThat(options.getTrustOptions()).isNotNull();
    assertThat(tls.toString()).doesNotContain(TestCertificates.PASSWORD);
  }

  @Test
  void a_key_store_without_a_trust_store_is_refused_naming_the_trust_store() {
    Map<String, String> env = good();
    env.remove(EventBusTls.TRUSTSTORE);

    assertThat(refused(env).field()).isEqualTo(EventBusTls.TRUSTSTORE);
  }

  @Test
  void a_trust_store_without_a_key_store_is_refused_naming_the_key_store() {
    Map<String, String> env = good();
    env.remove(EventBusTls.KEYSTORE);

    assertThat(refused(env).field()).isEqualTo(EventBusTls.KEYSTORE);
  }

  @Test
  void a_missing_file_is_named_with_its_variable() {
    for (String variable : new String[] {EventBusTls.KEYSTORE, EventBusTls.TRUSTSTORE}) {
      Map<String, String> env = good();
      env.put(variable, temp.resolve("absent.p12").toString());

      ConfigException e = refused(env);
      assertThat(e.field()).isEqualTo(variable);
      assertThat(e.getMessage()).contains("absent.p12").contains("not a readable file");
    }
    Map<String, String> env = good();
    env.put(EventBusTls.KEYSTORE, temp.toString());
    assertThat(refused(env).field()).as("a directory").isEqualTo(EventBusTls.KEYSTORE);
  }

  @Test
  void a_wrong_or_missing_password_names_the_store_and_its_password_variable() {
    String[][] cases = {
        {EventBusTls.KEYSTORE_PASSWORD, "wrong", EventBusTls.KEYSTORE},
        {EventBusTls.KEYSTORE_PASSWORD, null, EventBusTls.KEYSTORE},
        {EventBusTls.KEYSTORE_PASSWORD, "", EventBusTls.KEYSTORE},
        {EventBusTls.TRUSTSTORE_PASSWORD, "wrong", EventBusTls.TRUSTSTORE},
        {EventBusTls.TRUSTSTORE_PASSWORD, null, EventBusTls.TRUSTSTORE}};
    for (String[] c : cases) {
      Map<String, String> env = good();
      if (c[1] == null) {
        env.remove(c[0]);
      } else {
        env.put(c[0], c[1]);
      }

      ConfigException e = refused(env);
      assertThat(e.field()).as(c[0] + "=" + c[1]).isEqualTo(c[2]);
      assertThat(e.getMessage()).contains(c[0]);
    }
  }

  @Test
  void files_that_are_not_pkcs12_stores_are_refused() throws IOException {
    Path empty = Files.createFile(temp.resolve("empty.p12"));
    Path text = Files.writeString(temp.resolve("text.p12"), "-----BEGIN CERTIFICATE-----\nx\n");
    Path noise = Files.write(temp.resolve("noise.p12"), new byte[] {0x30, (byte) 0x82, 1, 2, 3});
    for (Path file : new Path[] {empty, text, noise}) {
      Map<String, String> env = good();
      env.put(EventBusTls.KEYSTORE, file.toString());

      ConfigException e = refused(env);
      assertThat(e.field()).as(file.toString()).isEqualTo(EventBusTls.KEYSTORE);
      assertThat(e.getMessage()).contains(file.getFileName().toString());
    }
  }

  @Test
  void a_trust_store_given_as_key_store_holds_no_private_key() {
    Map<String, String> env = good();
    env.put(EventBusTls.KEYSTORE, TestCertificates.trustStore().toString());

    ConfigException e = refused(env);
    assertThat(e.field()).isEqualTo(EventBusTls.KEYSTORE);
    assertThat(e.getMessage()).contains("no private key");
  }

  @Test
  void a_library_user_gets_the_same_checks_naming_its_fields() {
    EventBusTls tls = EventBusTls.of(TestCertificates.keyStore("node-b"),
        TestCertificates.PASSWORD, TestCertificates.trustStore(), TestCertificates.PASSWORD);
    assertThat(tls.keyStore()).isEqualTo(TestCertificates.keyStore("node-b"));

    assertThatThrownBy(() -> EventBusTls.of(TestCertificates.keyStore("node-b"), "nope",
        TestCertificates.trustStore(), TestCertificates.PASSWORD))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("keyStore:");
    assertThatThrownBy(() -> EventBusTls.of(TestCertificates.keyStore("node-b"),
        TestCertificates.PASSWORD, temp.resolve("none.p12"), TestCertificates.PASSWORD))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("trustStore:");
  }
}
