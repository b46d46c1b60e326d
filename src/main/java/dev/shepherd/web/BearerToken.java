package dev.shepherd.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The optional bearer token that state-changing requests must carry ({@code Authorization:
 * Bearer <token>}), over HTTP and in the SockJS bridge's message headers. Compared in constant
 * time. Without a configured token everything is allowed.
 */
final class BearerToken {
  private final byte[] expected;

  BearerToken(String token) {
    this.expected = token == null ? null
        : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
  }

  boolean required() {
    return expected != null;
  }

  /** Whether {@code header} (an Authorization value, possibly null) is acceptable. */
  boolean accepts(String header) {
    if (expected == null) {
      return true;
    }
    return header != null
        && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8), expected);
  }
}
