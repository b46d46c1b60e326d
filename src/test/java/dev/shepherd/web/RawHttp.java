package dev.shepherd.web;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * HTTP/1.1 spoken byte by byte over a plain socket, for requests no well-behaved client sends (a
 * foreign {@code Host}, a malformed chunk, a request line longer than allowed). One request per
 * connection: it writes the bytes and reads until the server closes or a whole response with a
 * {@code Content-Length} (or a 101 head) has arrived.
 */
final class RawHttp {
  private RawHttp() {}

  /** A response as read; {@code status} -1 when the server sent nothing before closing. */
  record Response(int status, Map<String, String> headers, String body, boolean closed) {
    JsonObject json() {
      return new JsonObject(body);
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** A GET of {@code path} with the given {@code Host} header value. */
  static Response get(int port, String path, String host, String... headers) {
    return exchange(port, request("GET", path, host, null, headers));
  }

  /** The bytes of a request; {@code body} null for none (else sent with Content-Length). */
  static String request(String method, String path, String host, String body,
      String... headers) {
    StringBuilder out = new StringBuilder(method).append(' ').append(path)
        .append(" HTTP/1.1\r\n");
    if (host != null) {
      out.append("Host: ").append(host).append("\r\n");
    }
    for (String header : headers) {
      out.append(header).append("\r\n");
    }
    if (body != null) {
      out.append("Content-Length: ").append(body.getBytes(StandardCharsets.UTF_8).length)
          .append("\r\n");
    }
    out.append("\r\n");
    if (body != null) {
      out.append(body);
    }
    return out.toString();
  }

  static Response exchange(int port, String request) {
    return exchange(port, request.getBytes(StandardCharsets.UTF_8));
  }

  static Response exchange(int port, byte[] request) {
    return exchange(port, request, false);
  }

  /** Like {@link #exchange(int, byte[])}, reading on after the response until the server closes. */
  static Response exchangeUntilClosed(int port, byte[] request) {
    return exchange(port, request, true);
  }

  private static Response exchange(int port, byte[] request, boolean untilClosed) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request);
      out.flush();
      return read(socket.getInputStream(), untilClosed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads one response; a read timeout (10 s) is an error, never a pass. */
  static Response read(InputStream in, boolean untilClosed) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int headEnd = -1;
    int length = -1;
    boolean closed = false;
    while (true) {
      int n;
      try {
        n = in.read(buffer);
      } catch (SocketTimeoutException e) {
        throw new IllegalStateException("no complete response within 10 s; got "
            + bytes.toString(StandardCharsets.ISO_8859_1), e);
      } catch (IOException e) {
        n = -1; // reset by the server: as good as closed
      }
      if (n < 0) {
        closed = true;
        break;
      }
      bytes.write(buffer, 0, n);
      String text = bytes.toString(StandardCharsets.ISO_8859_1);
      if (headEnd < 0 && text.contains("\r\n\r\n")) {
        headEnd = text.indexOf("\r\n\r\n") + 4;
        length = text.startsWith("HTTP/1.1 101") ? 0 : contentLength(text.substring(0, headEnd));
      }
      if (!untilClosed && headEnd >= 0 && length >= 0 && bytes.size() >= headEnd + length) {
        break;
      }
    }
    return parse(bytes.toByteArray(), closed);
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
        return Integer.parseInt(line.substring(colon + 1).trim());
      }
    }
    return -1;
  }

  private static Response parse(byte[] raw, boolean closed) {
    String text = new String(raw, StandardCharsets.UTF_8);
    int headEnd = text.indexOf("\r\n\r\n");
    if (headEnd < 0) {
      return new Response(-1, Map.of(), text, closed);
    }
    String[] lines = text.substring(0, headEnd).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new TreeMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).trim());
    }
    return new Response(status, headers, text.substring(headEnd + 4), closed);
  }
}
