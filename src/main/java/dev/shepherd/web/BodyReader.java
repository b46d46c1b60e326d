package dev.shepherd.web;

import dev.shepherd.runtime.payload.LogText;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an API request's body as bytes, whatever its {@code Content-Type}, up to {@code
 * maxBodyBytes}, for the handlers to decode as JSON. {@code curl -d} sends JSON labelled {@code
 * application/x-www-form-urlencoded}; Vert.x Web's body handler would run that through a form
 * decoder and refuse bodies of a kilobyte or more, so the label is not trusted and not needed.
 *
 * <p>Over the limit: 413, at once when {@code Content-Length} says so, else as soon as the bytes
 * pass it; the connection is then closed, after at most 2 MiB more have been read and dropped. A body that cannot be read
 * (a malformed chunk, a reset) is answered 400 where the connection still allows it. {@code
 * Expect: 100-continue} is honoured; any other expectation is 417.
 */
final class BodyReader {
  private static final Logger LOG = LoggerFactory.getLogger(BodyReader.class);

  /** How much of a refused body is read and dropped before the connection is cut. */
  static final long SWALLOW_BYTES = 2L << 20;

  private final int maxBodyBytes;

  BodyReader(int maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
  }

  void handle(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    if (request.isEnded()) {
      accept(ctx, Buffer.buffer());
      return;
    }
    long declared = declaredLength(request);
    if (declared > maxBodyBytes) {
      tooLarge(request);
      return;
    }
    String expect = request.getHeader("Expect");
    if (expect != null) {
      if (!expect.trim().equalsIgnoreCase("100-continue")) {
        HttpErrors.sendAndClose(request, 417, "EXPECTATION_FAILED",
            "Expect: only 100-continue is supported");
        return;
      }
      if (request.version() != HttpVersion.HTTP_1_0) {
        request.response().writeContinue();
      }
    }
    Buffer body = Buffer.buffer((int) Math.max(0, Math.min(declared, 64 * 1024)));
    boolean[] failed = {false};
    request.handler(chunk -> {
      if (failed[0]) {
        return;
      }
      if (body.length() + chunk.length() > maxBodyBytes) {
        failed[0] = true;
        tooLarge(request);
        return;
      }
      body.appendBuffer(chunk);
    });
    request.exceptionHandler(e -> {
      if (failed[0]) {
        return;
      }
      failed[0] = true;
      LOG.debug("request body of {} {} could not be read: {}", request.method(),
          LogText.quote(request.path()), LogText.quote(e.toString()));
      HttpErrors.sendAndClose(request, 400, "BAD_REQUEST",
          "body: the request body could not be read (malformed chunked encoding or a broken"
          + " connection)");
    });
    request.endHandler(v -> {
      if (failed[0]) {
        return;
      }
      accept(ctx, body);
    });
    request.resume();
  }

  /** Hands the body on as Vert.x Web's own body handler would (SockJS's xhr_send checks). */
  private static void accept(RoutingContext ctx, Buffer body) {
    RoutingContextInternal internal = (RoutingContextInternal) ctx;
    internal.visitHandler(RoutingContextInternal.BODY_HANDLER);
    internal.setBody(body);
    ctx.next();
  }

  /**
   * 413, then the rest of the body is read and dropped (up to {@link #SWALLOW_BYTES}) before the
   * connection closes: closing on unread bytes makes the kernel reset the connection, and a
   * client still sending would then lose the answer.
   */
  private void tooLarge(HttpServerRequest request) {
    long[] dropped = {0};
    request.handler(chunk -> {
      dropped[0] += chunk.length();
      if (dropped[0] > SWALLOW_BYTES) {
        request.connection().close();
      }
    });
    request.exceptionHandler(e -> { });
    request.endHandler(v -> request.connection().close());
    request.response().putHeader("Connection", "close");
    HttpErrors.send(request.response(), 413, "PAYLOAD_TOO_LARGE",
        "request bodies are limited to " + maxBodyBytes + " bytes");
    request.resume();
  }

  /** The {@code Content-Length}, or -1 when there is none (chunked, or no body). */
  private static long declaredLength(HttpServerRequest request) {
    String header = request.getHeader("Content-Length");
    if (header == null) {
      return -1;
    }
    try {
      return Long.parseLong(header.trim());
    } catch (NumberFormatException e) {
      return -1; // the decoder refuses such a request before it gets here
    }
  }
}
