package dev.shepherd.cluster.trust;

import dev.shepherd.core.ConfigException;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PfxOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;

/**
 * TLS with mutual authentication on the clustered event bus (docs/security.md): this node's
 * certificate and private key (a PKCS12 key store) and the certificates it trusts (a PKCS12 trust
 * store, the cluster's CA). Every event-bus connection then needs both ends to show a certificate
 * the other trusts: a member of the Hazelcast cluster without one can neither send to nor receive
 * from any node's bus. There is no "trust all": {@link #of} refuses to build without a trust store.
 *
 * <p>The launcher reads it from {@link #KEYSTORE}, {@link #KEYSTORE_PASSWORD}, {@link #TRUSTSTORE}
 * and {@link #TRUSTSTORE_PASSWORD} ({@link #fromEnvironment}); a library user builds it with
 * {@link #of} and calls {@link #applyTo} on the {@code EventBusOptions} of the clustered Vert.x it
 * builds (docs/library.md). Both open the stores at once, so a missing file or a wrong password
 * is a start failure naming the file and the variable, not a handshake that fails later.
 *
 * @param keyStore the PKCS12 file with this node's key and certificate chain
 * @param trustStore the PKCS12 file with the certificates of the CA that signs the members'
 */
public record EventBusTls(Path keyStore, String keyStorePassword, Path trustStore,
    String trustStorePassword) {
  public static final String KEYSTORE = "SHEPHERD_EVENTBUS_TLS_KEYSTORE";
  public static final String KEYSTORE_PASSWORD = "SHEPHERD_EVENTBUS_TLS_KEYSTORE_PASSWORD";
  public static final String TRUSTSTORE = "SHEPHERD_EVENTBUS_TLS_TRUSTSTORE";
  public static final String TRUSTSTORE_PASSWORD = "SHEPHERD_EVENTBUS_TLS_TRUSTSTORE_PASSWORD";

  public EventBusTls {
    Objects.requireNonNull(keyStore, "keyStore");
    Objects.requireNonNull(trustStore, "trustStore");
    keyStorePassword = keyStorePassword == null ? "" : keyStorePassword;
    trustStorePassword = trustStorePassword == null ? "" : trustStorePassword;
  }

  /**
   * The TLS of a library user's node, checked: both stores open with their passwords, the key
   * store holds a private key and the trust store a certificate; otherwise a {@link
   * ConfigException} naming {@code keyStore} or {@code trustStore} and the file.
   */
  public static EventBusTls of(Path keyStore, String keyStorePassword, Path trustStore,
      String trustStorePassword) {
    return check(new EventBusTls(keyStore, keyStorePassword, trustStore, trustStorePassword),
        "keyStore", "keyStorePassword", "trustStore", "trustStorePassword");
  }

  /**
   * The TLS the environment asks for, checked, or null when it sets neither store (TLS off). A
   * key store without a trust store (or the other way round) is refused: TLS here is mutual or
   * not at all. Errors name the variable and the file, never a password.
   */
  public static EventBusTls fromEnvironment(Map<String, String> env) {
    String keyStore = value(env, KEYSTORE);
    String trustStore = value(env, TRUSTSTORE);
    if (keyStore == null && trustStore == null) {
      return null;
    }
    if (trustStore == null) {
      throw new ConfigException(TRUSTSTORE, null, "is required when " + KEYSTORE + " is set:"
          + " the event bus trusts only the cluster's CA, never every certificate");
    }
    if (keyStore == null) {
      throw new ConfigException(KEYSTORE, null, "is required when " + TRUSTSTORE + " is set:"
          + " mutual TLS needs this node's own certificate and key (a PKCS12 file)");
    }
    return check(new EventBusTls(path(KEYSTORE, keyStore), env.get(KEYSTORE_PASSWORD),
        path(TRUSTSTORE, trustStore), env.get(TRUSTSTORE_PASSWORD)),
        KEYSTORE, KEYSTORE_PASSWORD, TRUSTSTORE, TRUSTSTORE_PASSWORD);
  }

  /**
   * Turns TLS on in {@code options}: this key and certificate, this trust store, and a client
   * certificate required of every node that connects.
   */
  public EventBusOptions applyTo(EventBusOptions options) {
    return options.setSsl(true).setTrustAll(false).setClientAuth(ClientAuth.REQUIRED)
        .setKeyCertOptions(new PfxOptions().setPath(keyStore.toString())
            .setPassword(keyStorePassword))
        .setTrustOptions(new PfxOptions().setPath(trustStore.toString())
            .setPassword(trustStorePassword));
  }

  /** Never the passwords. */
  @Override
  public String toString() {
    return "EventBusTls[keyStore=" + keyStore + ", trustStore=" + trustStore + "]";
  }

  private static EventBusTls check(EventBusTls tls, String keyField, String keyPasswordField,
      String trustField, String trustPasswordField) {
    KeyStore keys = open(tls.keyStore, tls.keyStorePassword, keyField, keyPasswordField);
    if (!holds(keys, true)) {
      throw new ConfigException(keyField, tls.keyStore.toString(), "holds no private key:"
          + " it must hold this node's key and its certificate signed by the cluster's CA");
    }
    KeyStore trusted = open(tls.trustStore, tls.trustStorePassword, trustField,
        trustPasswordField);
    if (!holds(trusted, false)) {
      throw new ConfigException(trustField, tls.trustStore.toString(), "holds no certificate:"
          + " it must hold the certificate of the CA that signs the cluster's members");
    }
    return tls;
  }

  private static KeyStore open(Path file, String password, String field, String passwordField) {
    if (!Files.isRegularFile(file)) {
      throw new ConfigException(field, file.toString(), "is not a readable file");
    }
    try (InputStream in = Files.newInputStream(file)) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, password.toCharArray());
      return store;
    } catch (IOException e) {
      if (e.getCause() instanceof UnrecoverableKeyException
          || String.valueOf(e.getMessage()).toLowerCase().contains("password")) {
        throw new ConfigException(field, file.toString(), "does not open with the password of "
            + passwordField + " (wrong or missing password)");
      }
      throw new ConfigException(field, file.toString(), "is not a PKCS12 key store ("
          + e.getMessage() + ")");
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new ConfigException(field, file.toString(), "is not a PKCS12 key store ("
          + e.getMessage() + ")");
    }
  }

  private static boolean holds(KeyStore store, boolean privateKey) {
    try {
      for (String alias : Collections.list(store.aliases())) {
        if (privateKey ? store.isKeyEntry(alias) : store.isCertificateEntry(alias)
            || store.getCertificate(alias) != null) {
          return true;
        }
      }
      return false;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }

  private static Path path(String variable, String text) {
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw new ConfigException(variable, text, "is not a file name");
    }
  }

  private static String value(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.trim();
  }
}
