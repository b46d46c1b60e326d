package dev.shepherd.runtime.wire;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.jackson.JacksonCodec;
import java.io.IOException;
import java.util.Set;

/**
 * Whether the JSON object a buffer holds names one of some fields at its top level, read from
 * the bytes without decoding the object: a message's form can be told before the one decoder
 * that takes it reads it whole. A worker host's batch of completions was decoded twice on the
 * coordinator's event loop (as text, to tell it from the single form, then as bytes), a tenth of
 * that loop's time under load.
 */
public final class TopLevelFields {
  private TopLevelFields() {}

  /**
   * True as soon as a top-level field of {@code json} is one of {@code names} (what follows is
   * not read); false when the object has none of them; null when {@code json} is no JSON object,
   * or not valid JSON as far as it was read, for the caller's decoder to refuse with its reason.
   */
  public static Boolean namesAny(Buffer json, Set<String> names) {
    try (JsonParser parser = JacksonCodec.createParser(json)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
        if (names.contains(parser.currentName())) {
          return true;
        }
        parser.nextToken();
        parser.skipChildren();
      }
      return token == JsonToken.END_OBJECT && parser.nextToken() == null ? false : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
