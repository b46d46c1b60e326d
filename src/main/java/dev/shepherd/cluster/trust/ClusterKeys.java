package dev.shepherd.cluster.trust;

import dev.shepherd.core.ConfigException;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.core.shareddata.Shareable;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cluster key (docs/security.md): a secret of 256 bits every node of the cluster holds, with
 * which a highly available pool seals the records it writes to the store and worker hosts and
 * pools authenticate what they send each other. An older key may be given for reading alone, so
 * a key can be rotated: every node first gets the new key with the old one as {@link #PREVIOUS},
 * then the old one is dropped. Two keys are derived from each (HMAC-SHA256 of a label), one to
 * seal and one to authenticate, so the one secret never serves two algorithms.
 *
 * <p>The launcher reads {@link #KEY} and {@link #PREVIOUS} (base64 of 32 bytes each: {@code
 * openssl rand -base64 32}) and installs them on its Vert.x ({@link #install}); a library user
 * does the same with {@link #of}. {@link #NONE} (no key installed) leaves records in clear and
 * hosts unauthenticated, as before.
 */
public final class ClusterKeys implements Shareable {
  public static final String KEY = "SHEPHERD_CLUSTER_KEY";
  public static final String PREVIOUS = "SHEPHERD_CLUSTER_KEY_PREVIOUS";
  /** Bytes of a key. */
  public static final int KEY_BYTES = 32;
  /** No key: nothing sealed, nothing authenticated. */
  public static final ClusterKeys NONE = new ClusterKeys(List.of());

  private static final String LOCAL_MAP = "shepherd.cluster.trust";
  private static final String INSTALLED = "keys";
  private static final String SEAL_LABEL = "shepherd ha records v1";
  private static final String MAC_LABEL = "shepherd worker hosts v1";

  /** The keys, the one to write with first. */
  private final List<byte[]> keys;
  private final List<SecretKeySpec> sealing;
  private final List<SecretKeySpec> authenticating;

  private ClusterKeys(List<byte[]> keys) {
    this.keys = keys;
    this.sealing = derived(keys, SEAL_LABEL, "AES");
    this.authenticating = derived(keys, MAC_LABEL, "HmacSHA256");
  }

  /**
   * The keys the environment gives, or {@link #NONE}. A key that is not base64 of exactly 32
   * bytes fails with a {@link ConfigException} naming the variable (and never its value); so
   * does a previous key without a current one.
   */
  public static ClusterKeys fromEnvironment(Map<String, String> env) {
    String key = blankToNull(env.get(KEY));
    String previous = blankToNull(env.get(PREVIOUS));
    if (key == null && previous == null) {
      return NONE;
    }
    if (key == null) {
      throw new ConfigException(KEY, null, "is required when " + PREVIOUS + " is set: the"
          + " previous key is only read with, the current one writes");
    }
    return of(KEY, key, PREVIOUS, previous);
  }

  /**
   * The keys of a library user's node: {@code key} (base64 of 32 bytes) and an optional {@code
   * previous} one (null for none), checked as {@link #fromEnvironment} checks them.
   */
  public static ClusterKeys of(String key, String previous) {
    if (key == null) {
      throw new ConfigException("key", null, "is required: base64 of " + KEY_BYTES + " bytes");
    }
    return of("key", key, "previous", previous);
  }

  private static ClusterKeys of(String keyField, String key, String previousField,
      String previous) {
    List<byte[]> keys = new ArrayList<>(2);
    keys.add(decode(keyField, key));
    if (previous != null) {
      byte[] older = decode(previousField, previous);
      if (!Arrays.equals(older, keys.get(0))) {
        keys.add(older);
      }
    }
    return new ClusterKeys(List.copyOf(keys));
  }

  /** Whether a key is set. */
  public boolean present() {
    return !keys.isEmpty();
  }

  /** The AES-256 keys that seal HA records: the one to write with first, then the one to read. */
  public List<SecretKeySpec> sealing() {
    return sealing;
  }

  /** The HMAC-SHA256 keys that authenticate worker hosts: the one to sign with first. */
  public List<SecretKeySpec> authenticating() {
    return authenticating;
  }

  /** Puts {@code keys} on {@code vertx}: the pools and hosts it runs from now on use them. */
  public static void install(Vertx vertx, ClusterKeys keys) {
    LocalMap<String, ClusterKeys> map = vertx.sharedData().getLocalMap(LOCAL_MAP);
    map.put(INSTALLED, keys);
  }

  /** The keys installed on {@code vertx}, or {@link #NONE}. */
  public static ClusterKeys of(Vertx vertx) {
    LocalMap<String, ClusterKeys> map = vertx.sharedData().getLocalMap(LOCAL_MAP);
    ClusterKeys keys = map.get(INSTALLED);
    return keys == null ? NONE : keys;
  }

  /** Shared as it is: immutable. */
  @Override
  public Shareable copy() {
    return this;
  }

  /** Never the keys. */
  @Override
  public String toString() {
    return "ClusterKeys[" + keys.size() + " keys]";
  }

  private static List<SecretKeySpec> derived(List<byte[]> keys, String label,
      String algorithm) {
    List<SecretKeySpec> out = new ArrayList<>(keys.size());
    for (byte[] key : keys) {
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        out.add(new SecretKeySpec(mac.doFinal(label.getBytes(StandardCharsets.UTF_8)),
            algorithm));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
      }
    }
    return List.copyOf(out);
  }

  private static byte[] decode(String field, String text) {
    String trimmed = text.trim();
    byte[] key;
    try {
      key = Base64.getDecoder().decode(trimmed);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(field, "<" + trimmed.length() + " characters>", "is not base64"
          + " (make a key with: openssl rand -base64 " + KEY_BYTES + ")");
    }
    if (key.length != KEY_BYTES) {
      throw new ConfigException(field, "<" + trimmed.length() + " characters>", "must be "
          + KEY_BYTES + " bytes (256 bits) in base64, was " + key.length + " bytes (make a key"
          + " with: openssl rand -base64 " + KEY_BYTES + ")");
    }
    return key;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
