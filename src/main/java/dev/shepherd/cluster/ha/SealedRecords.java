package dev.shepherd.cluster.ha;

import dev.shepherd.cluster.trust.ClusterKeys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records a highly available pool writes to the store, sealed with the cluster key
 * (docs/security.md, A3 in docs/rules.md): each record (a batch, or a checkpoint's base) is
 * encrypted and authenticated with AES-256-GCM under a fresh random 96-bit nonce, with the pool,
 * the kind of record, the writer's term and the record's sequence as associated data, so a member
 * that reads the map sees ciphertext, and a record a member forged, altered, or moved to another
 * pool, term or place in the log does not open. Without a key records stay in clear, as before.
 *
 * <p>A sealed record is the text {@code sealed1:<kind>:<term>:<sequence>:<base64 of nonce,
 * ciphertext and tag>}. {@link #open} tries the current key, then the previous one (rotation), and
 * refuses ({@link Refused}) what none opens, a record in clear when a key is set, and a sealed
 * record when this node has no key.
 */
final class SealedRecords {
  private static final Logger LOG = LoggerFactory.getLogger(SealedRecords.class);
  static final String PREFIX = "sealed1:";
  static final String BATCH = "batch";
  static final String BASE = "base";
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A record that does not authenticate: what it claims to be, and why it was refused. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final String kind;
    final long term;
    final long sequence;

    Refused(String kind, long term, long sequence, String why) {
      super(why);
      this.kind = kind;
      this.term = term;
      this.sequence = sequence;
    }
  }

  private final String pool;
  private final List<SecretKeySpec> keys;
  /** The refused records already reported, so each is an ERROR once however often it is read. */
  private final Set<String> reported = java.util.concurrent.ConcurrentHashMap.newKeySet();

  SealedRecords(String pool, ClusterKeys keys) {
    this.pool = pool;
    this.keys = keys.sealing();
  }

  /** Whether records are sealed (a cluster key is set). */
  boolean sealing() {
    return !keys.isEmpty();
  }

  /** {@code text} sealed as record {@code sequence} of {@code kind} written in {@code term}. */
  String seal(String kind, long term, long sequence, String text) {
    if (keys.isEmpty()) {
      return text;
    }
    return new String(seal(kind, term, sequence, text.getBytes(StandardCharsets.UTF_8)),
        StandardCharsets.UTF_8);
  }

  /**
   * {@code utf8}, a record's text as UTF-8, sealed as record {@code sequence} of {@code kind}
   * written in {@code term}: the sealed record's text as UTF-8 (the bytes themselves in clear).
   */
  byte[] seal(String kind, long term, long sequence, byte[] utf8) {
    if (keys.isEmpty()) {
      return utf8;
    }
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, keys.get(0), new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(associated(kind, term, sequence));
      byte[] sealed = cipher.doFinal(utf8);
      byte[] out = ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed)
          .array();
      return (PREFIX + kind + ":" + term + ":" + sequence + ":"
          + Base64.getEncoder().encodeToString(out)).getBytes(StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is missing from this JDK", e);
    }
  }

  /**
   * The text of a record the store gave back, expected to be of {@code kind}: opened with a key
   * when it is sealed, as it is when no key is set and it is not.
   */
  String open(String kind, String record) throws Refused {
    if (!record.startsWith(PREFIX)) {
      if (keys.isEmpty()) {
        return record;
      }
      throw new Refused(kind, -1, -1, "a record in clear, but the cluster key is set: records"
          + " are sealed (written before the key was set, or by a member without it)");
    }
    String[] parts = record.substring(PREFIX.length()).split(":", 4);
    long term = parts.length == 4 ? number(parts[1]) : -1;
    long sequence = parts.length == 4 ? number(parts[2]) : -1;
    if (parts.length != 4 || term < 0 || sequence < 0) {
      throw new Refused(kind, term, sequence, "a sealed record that is malformed");
    }
    if (!parts[0].equals(kind)) {
      throw new Refused(kind, term, sequence, "a sealed " + parts[0] + " where a " + kind
          + " belongs");
    }
    if (keys.isEmpty()) {
      throw new Refused(kind, term, sequence, "a sealed record, but this node has no cluster"
          + " key (set " + ClusterKeys.KEY + " as on the other nodes)");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(parts[3]);
    } catch (IllegalArgumentException e) {
      throw new Refused(kind, term, sequence, "a sealed record that is not base64");
    }
    if (bytes.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new Refused(kind, term, sequence, "a sealed record too short to hold its tag");
    }
    for (SecretKeySpec key : keys) {
      try {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key,
            new GCMParameterSpec(TAG_BITS, bytes, 0, NONCE_BYTES));
        cipher.updateAAD(associated(kind, term, sequence));
        byte[] text = cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
        return new String(text, StandardCharsets.UTF_8);
      } catch (AEADBadTagException e) {
        // not this key (or not genuine): the next key, then refused
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES-GCM is missing from this JDK", e);
      }
    }
    throw new Refused(kind, term, sequence, "a sealed record that does not authenticate with"
        + " the cluster key" + (keys.size() > 1 ? " nor the previous one" : "")
        + " (forged, altered, or sealed with another key)");
  }

  /**
   * One reading of the log (at a takeover, or as a standby follows it), base first, then the
   * batches in order: each record's text, or null for a record refused (an ERROR, once per
   * record, naming the pool, the term and the sequence it claims), which recovery leaves out, so
   * nothing it says is answered. When sealing, sealed records must also come in the order they
   * were written, (term, sequence) growing, so a genuine record copied to another place in the
   * log is refused too.
   */
  final class Reader {
    private long lastTerm = -1;
    private long lastSequence = -1;

    String next(String kind, String record) {
      try {
        String text = open(kind, record);
        if (!keys.isEmpty()) {
          long[] at = position(record);
          if (at[0] < lastTerm || (at[0] == lastTerm && at[1] <= lastSequence)) {
            throw new Refused(kind, at[0], at[1], "a sealed record out of its place in the log"
                + " (after term " + lastTerm + ", sequence " + lastSequence + "): a replay");
          }
          lastTerm = at[0];
          lastSequence = at[1];
        }
        return text;
      } catch (Refused refused) {
        if (reported.add(kind + ":" + refused.term + ":" + refused.sequence + ":"
            + refused.getMessage())) {
          LOG.error("pool {}: refused a {} of the HA store as it read the log (term {},"
              + " sequence {}): {}; nothing it says is recovered or answered", pool, kind,
              refused.term, refused.sequence, refused.getMessage());
        }
        return null;
      }
    }
  }

  /** A new reading of the log, for one recovery. */
  Reader reader() {
    return new Reader();
  }

  private static long[] position(String sealed) {
    String[] parts = sealed.substring(PREFIX.length()).split(":", 4);
    return new long[] {number(parts[1]), number(parts[2])};
  }

  private byte[] associated(String kind, long term, long sequence) {
    return ("shepherd.ha\0" + pool + "\0" + kind + "\0" + term + "\0" + sequence)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static long number(String text) {
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
