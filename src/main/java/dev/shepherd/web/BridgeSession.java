package dev.shepherd.web;

import dev.shepherd.runtime.payload.LogText;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.sockjs.SockJSSocket;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One browser connection speaking the Vert.x event-bus bridge protocol (the frames of {@code
 * vertx-eventbus.js}) over SockJS. Each frame is checked whole before anything happens; a frame
 * that is not what the protocol allows is answered {@code {"type": "err", "body": <reason>}} and
 * changes nothing:
 *
 * <ul>
 *   <li>{@code invalid_json}: not a JSON object; {@code missing_type} / {@code invalid_type}:
 *       {@code type} absent, not a string, or not {@code ping}, {@code send}, {@code publish},
 *       {@code register}, {@code unregister};</li>
 *   <li>{@code missing_address} / {@code invalid_address}: {@code address} absent, not a string,
 *       empty or over 200 characters; {@code access_denied}: not a permitted address;</li>
 *   <li>{@code invalid_headers}: {@code headers} not an object of strings; {@code missing_body}:
 *       a send without {@code body}; {@code invalid_body}: a body the event bus cannot carry;
 *       {@code invalid_reply_address}: not a string of 1 to 36 printable characters;</li>
 *   <li>{@code rejected}: a publish (submit and status are request/reply), or a send without the
 *       bearer token when one is configured; {@code max_handlers_reached}: too many registrations
 *       or unanswered sends on this connection; {@code address_already_registered}.</li>
 * </ul>
 *
 * <p>A send with a {@code replyAddress} is an event-bus request: its reply comes back as {@code
 * {"type": "rec", "address": replyAddress, "body"}}, its failure as {@code {"type": "err",
 * "address": replyAddress, "failureCode", "failureType", "message"}}. Registered addresses deliver
 * {@code rec} frames; a connection that cannot keep up loses them rather than queueing without
 * bound. A connection that sends no {@code ping} within the ping timeout is closed.
 */
final class BridgeSession {
  private static final Logger LOG = LoggerFactory.getLogger(BridgeSession.class);
  static final int MAX_ADDRESS_CHARS = 200;
  static final int MAX_REPLY_ADDRESS_CHARS = 36;
  static final int MAX_HANDLERS = 1000;

  private final Vertx vertx;
  private final SockJSSocket socket;
  private final BridgePermits permits;
  private final BearerToken token;
  private final long replyTimeoutMs;
  private final long pingTimeoutMs;
  private final Map<String, MessageConsumer<Object>> registrations = new HashMap<>();
  private int awaitingReplies;
  private long lastPing = System.nanoTime();
  private long pingTimer = -1;
  private boolean closed;

  BridgeSession(Vertx vertx, SockJSSocket socket, BridgePermits permits, BearerToken token,
      long replyTimeoutMs, long pingTimeoutMs) {
    this.vertx = vertx;
    this.socket = socket;
    this.permits = permits;
    this.token = token;
    this.replyTimeoutMs = replyTimeoutMs;
    this.pingTimeoutMs = pingTimeoutMs;
  }

  void start() {
    socket.handler(this::frame);
    socket.exceptionHandler(e -> LOG.debug("event-bus bridge socket: {}",
        LogText.quote(e.toString())));
    socket.closeHandler(v -> end());
    pingTimer = vertx.setPeriodic(pingTimeoutMs, id -> {
      if ((System.nanoTime() - lastPing) / 1_000_000 >= pingTimeoutMs) {
        socket.close();
      }
    });
  }

  private void frame(Buffer data) {
    if (closed) {
      return;
    }
    JsonObject frame;
    try {
      frame = new JsonObject(data);
    } catch (DecodeException | ClassCastException e) {
      error("invalid_json");
      return;
    }
    Object type = frame.getValue("type");
    if (type == null) {
      error("missing_type");
    } else if ("ping".equals(type)) {
      lastPing = System.nanoTime();
    } else if ("send".equals(type)) {
      send(frame);
    } else if ("publish".equals(type)) {
      // Submit and status are request/reply: a publish could not be answered.
      error(address(frame, permits::inbound) == null ? null : "rejected");
    } else if ("register".equals(type)) {
      register(frame);
    } else if ("unregister".equals(type)) {
      unregister(frame);
    } else {
      error("invalid_type");
    }
  }

  private void send(JsonObject frame) {
    String address = address(frame, permits::inbound);
    if (address == null) {
      return;
    }
    DeliveryOptions options = headers(frame);
    if (options == null) {
      return;
    }
    if (!frame.containsKey("body")) {
      error("missing_body");
      return;
    }
    Object replyAddress = frame.getValue("replyAddress");
    if (replyAddress != null && !validReplyAddress(replyAddress)) {
      error("invalid_reply_address");
      return;
    }
    Object authorization = frame.getJsonObject("headers") == null ? null
        : frame.getJsonObject("headers").getValue("Authorization");
    if (!token.accepts(authorization instanceof String text ? text : null)) {
      LOG.debug("event-bus bridge: refused a send to {} without a valid token",
          LogText.quote(address));
      error("rejected");
      return;
    }
    if (replyAddress != null && awaitingReplies >= MAX_HANDLERS) {
      error("max_handlers_reached");
      return;
    }
    Object body = frame.getValue("body");
    if (body instanceof BigInteger || body instanceof BigDecimal) {
      error("invalid_body"); // the event bus has no codec for a number beyond a long
      return;
    }
    try {
      if (replyAddress == null) {
        vertx.eventBus().send(address, body, options);
        return;
      }
      vertx.eventBus().request(address, body, options.setSendTimeout(replyTimeoutMs))
          .onComplete(ar -> {
            awaitingReplies--;
            if (ar.succeeded()) {
              reply((String) replyAddress, ar.result());
            } else {
              failure((String) replyAddress, ar.cause());
            }
          });
      awaitingReplies++;
    } catch (IllegalArgumentException e) {
      error("invalid_body"); // a value with no event-bus codec
    }
  }

  private void register(JsonObject frame) {
    String address = address(frame, permits::outbound);
    if (address == null || headers(frame) == null) {
      return;
    }
    if (registrations.containsKey(address)) {
      error("address_already_registered");
      return;
    }
    if (registrations.size() >= MAX_HANDLERS) {
      error("max_handlers_reached");
      return;
    }
    registrations.put(address, vertx.eventBus().consumer(address, m -> deliver(address, m)));
  }

  private void unregister(JsonObject frame) {
    String address = address(frame, permits::outbound);
    if (address == null) {
      return;
    }
    MessageConsumer<Object> consumer = registrations.remove(address);
    if (consumer != null) {
      consumer.unregister();
    }
  }

  /** The frame's address if it is well-formed and permitted; else answers why and gives null. */
  private String address(JsonObject frame, Predicate<String> permitted) {
    Object value = frame.getValue("address");
    if (value == null) {
      error("missing_address");
      return null;
    }
    if (!(value instanceof String address) || address.isEmpty()
        || address.length() > MAX_ADDRESS_CHARS) {
      error("invalid_address");
      return null;
    }
    if (!permitted.test(address)) {
      error("access_denied");
      return null;
    }
    return address;
  }

  /** Delivery options carrying the frame's headers but the token; null (answered) if bad. */
  private DeliveryOptions headers(JsonObject frame) {
    Object value = frame.getValue("headers");
    DeliveryOptions options = new DeliveryOptions();
    if (value == null) {
      return options;
    }
    if (!(value instanceof JsonObject headers)) {
      error("invalid_headers");
      return null;
    }
    for (Map.Entry<String, Object> header : headers) {
      if (!(header.getValue() instanceof String text)) {
        error("invalid_headers");
        return null;
      }
      if (!header.getKey().equalsIgnoreCase("Authorization")) {
        options.addHeader(header.getKey(), text);
      }
    }
    return options;
  }

  private static boolean validReplyAddress(Object value) {
    if (!(value instanceof String text) || text.isEmpty()
        || text.length() > MAX_REPLY_ADDRESS_CHARS) {
      return false;
    }
    return text.chars().allMatch(c -> c > 0x20 && c < 0x7f);
  }

  private void deliver(String address, Message<Object> message) {
    if (closed || socket.writeQueueFull()) {
      return; // a slow reader loses events; the next stats event heals its picture
    }
    write(new JsonObject().put("type", "rec").put("address", address)
        .put("body", message.body()));
  }

  private void reply(String replyAddress, Message<Object> message) {
    write(new JsonObject().put("type", "rec").put("address", replyAddress)
        .put("body", message.body()));
  }

  private void failure(String replyAddress, Throwable cause) {
    JsonObject frame = new JsonObject().put("type", "err").put("address", replyAddress)
        .put("message", String.valueOf(cause.getMessage()));
    if (cause instanceof ReplyException e) {
      frame.put("failureCode", e.failureCode()).put("failureType", e.failureType().name());
    } else {
      frame.put("failureCode", -1).put("failureType", "RECIPIENT_FAILURE");
    }
    write(frame);
  }

  private void error(String reason) {
    if (reason != null) {
      write(new JsonObject().put("type", "err").put("body", reason));
    }
  }

  /** Writes a frame; one that cannot be encoded is replaced by an error naming its address. */
  private void write(JsonObject frame) {
    if (closed) {
      return;
    }
    String text;
    try {
      text = frame.encode();
    } catch (RuntimeException e) {
      LOG.debug("event-bus bridge: a frame for {} could not be encoded: {}",
          LogText.quote(frame.getValue("address")), LogText.quote(e.toString()));
      text = new JsonObject().put("type", "err").put("address", frame.getValue("address"))
          .put("failureCode", -1).put("failureType", "RECIPIENT_FAILURE")
          .put("message", "the message could not be encoded as JSON").encode();
    }
    socket.write(Buffer.buffer(text));
  }

  private void end() {
    closed = true;
    if (pingTimer >= 0) {
      vertx.cancelTimer(pingTimer);
    }
    registrations.values().forEach(MessageConsumer::unregister);
    registrations.clear();
  }
}
