package dev.shepherd.runtime.wire;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.impl.JsonUtil;
import java.util.Map;

/**
 * The event bus's JSON-object codec for a reply its sender built for that reply alone and never
 * touches again (an answer's JSON, fresh for each answer). Delivered in this JVM, Vert.x's own
 * codec copies the whole tree so that the receiver owns what it gets; this one hands the sender's
 * object over and copies only the values inside it ({@link JsonObject#copy()}'s copy of each), so
 * the receiver still shares nothing with anyone (a result the pool also remembers is copied), and
 * the one map nobody else holds is not copied again. On the wire it is Vert.x's JSON codec,
 * byte for byte.
 *
 * <p>For replies only: a reply has one receiver, and a message published to several local
 * consumers would hand each the same object.
 */
public final class OwnedJsonCodec implements MessageCodec<JsonObject, JsonObject> {
  public static final String NAME = "shepherd.owned-json";
  static final OwnedJsonCodec INSTANCE = new OwnedJsonCodec();

  private OwnedJsonCodec() {}

  /**
   * Registers the codec on {@code bus} (once: a second pool on the same bus finds it there) and
   * returns the delivery options that send with it.
   */
  public static DeliveryOptions registerOn(EventBus bus) {
    synchronized (OwnedJsonCodec.class) {
      try {
        bus.registerCodec(INSTANCE);
      } catch (IllegalStateException alreadyRegistered) {
        // A pool before this one on the same bus registered it.
      }
    }
    return new DeliveryOptions().setCodecName(NAME);
  }

  @Override
  public void encodeToWire(Buffer buffer, JsonObject json) {
    Buffer encoded = json.toBuffer();
    buffer.appendInt(encoded.length());
    buffer.appendBuffer(encoded);
  }

  @Override
  public JsonObject decodeFromWire(int pos, Buffer buffer) {
    int length = buffer.getInt(pos);
    int start = pos + 4;
    return new JsonObject(buffer.slice(start, start + length));
  }

  /** The sender's object, each of its values replaced by its deep copy. */
  @Override
  public JsonObject transform(JsonObject json) {
    for (Map.Entry<String, Object> field : json.getMap().entrySet()) {
      field.setValue(JsonUtil.deepCopy(field.getValue(), JsonUtil.DEFAULT_CLONER));
    }
    return json;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
