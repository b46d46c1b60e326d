package dev.shepherd.cluster.hosts;

import dev.shepherd.cluster.trust.ClusterKeys;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The authentication of the worker-host protocol with the cluster key (docs/security.md,
 * docs/protocol.md "Worker hosts"): with a key set, every registration, heartbeat, deregistration,
 * batch of commands and batch of reports, and the pool's answers to them, carry the header
 * {@value #HEADER}: {@code <term>.<HMAC-SHA256>}, the MAC over the message's kind, the term and
 * the body's bytes as they were sent. A receiver that finds no MAC, or one that none of its keys
 * (the current one, then the previous one) gives, refuses the message: the pool with {@code 401
 * UNAUTHENTICATED_HOST}, a host by ignoring the commands. The body itself is unchanged, so the
 * codec ({@link HostCodec}) knows nothing of it; without a key no header is sent or checked.
 */
public final class HostMac {
  /** The header with the MAC. */
  public static final String HEADER = "shepherd-mac";
  /** The name of a pool's refusal of a message that does not authenticate. */
  public static final String UNAUTHENTICATED = "UNAUTHENTICATED_HOST";
  /** Its code. */
  public static final int UNAUTHENTICATED_CODE = 401;
  /** No key: nothing signed, everything accepted. */
  public static final HostMac NONE = new HostMac(List.of());

  // What a message is, so a MAC of one kind never passes for another.
  public static final String REGISTER = "register";
  public static final String REGISTERED = "registered";
  public static final String HEARTBEAT = "heartbeat";
  public static final String DEREGISTER = "deregister";
  public static final String DEREGISTERED = "deregistered";
  public static final String COMMANDS = "commands";
  public static final String REPORTS = "reports";

  private final List<SecretKeySpec> keys;

  private HostMac(List<SecretKeySpec> keys) {
    this.keys = keys;
  }

  /** With {@code keys}' authentication keys (none: {@link #NONE}'s behaviour). */
  public static HostMac of(ClusterKeys keys) {
    return keys.present() ? new HostMac(keys.authenticating()) : NONE;
  }

  /** With the keys installed on {@code vertx} ({@link ClusterKeys#install}). */
  public static HostMac of(Vertx vertx) {
    return vertx == null ? NONE : of(ClusterKeys.of(vertx));
  }

  /** Whether messages are signed and checked. */
  public boolean on() {
    return !keys.isEmpty();
  }

  /** {@code options} with the MAC of {@code body} as a message of {@code kind} in {@code term}. */
  public DeliveryOptions sign(DeliveryOptions options, String kind, long term, Object body) {
    if (on()) {
      options.addHeader(HEADER, term + "." + Base64.getUrlEncoder().withoutPadding()
          .encodeToString(mac(keys.get(0), kind, term, bytes(body))));
    }
    return options;
  }

  /** New delivery options with the MAC of {@code body}. */
  public DeliveryOptions sign(String kind, long term, Object body) {
    return sign(new DeliveryOptions(), kind, term, body);
  }

  /** Whether {@code message} is an authentic message of {@code kind} (always, without a key). */
  public boolean verify(String kind, Message<?> message) {
    return verify(kind, message.headers().get(HEADER), message.body());
  }

  /** Whether {@code header} is the MAC of {@code body} as a message of {@code kind}. */
  public boolean verify(String kind, String header, Object body) {
    if (!on()) {
      return true;
    }
    byte[] bytes = bytes(body);
    int dot = header == null ? -1 : header.indexOf('.');
    if (bytes == null || dot <= 0 || header.length() > 128) {
      return false;
    }
    long term;
    byte[] given;
    try {
      term = Long.parseLong(header.substring(0, dot));
      given = Base64.getUrlDecoder().decode(header.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      return false;
    }
    for (SecretKeySpec key : keys) {
      if (MessageDigest.isEqual(given, mac(key, kind, term, bytes))) {
        return true;
      }
    }
    return false;
  }

  /** The bytes a MAC covers: a buffer's, a JSON object's text, a string's; null otherwise. */
  private static byte[] bytes(Object body) {
    if (body instanceof Buffer buffer) {
      return buffer.getBytes();
    } else if (body instanceof JsonObject json) {
      return json.toBuffer().getBytes();
    } else if (body instanceof String text) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    return null;
  }

  private static byte[] mac(SecretKeySpec key, String kind, long term, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update((kind + "\n" + term + "\n").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }
}
