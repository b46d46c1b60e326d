package dev.shepherd.web;

import io.netty.util.NetUtil;
import io.vertx.core.net.HostAndPort;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code Host} names this server answers to, and so the origins whose pages may use it. A
 * page from {@code http://evil.example:8080} whose name the attacker re-points at 127.0.0.1 (DNS
 * rebinding) reaches the server with {@code Host: evil.example:8080} and a matching {@code
 * Origin}; only a list of the server's own names tells that request apart.
 *
 * <p>Defaults: {@code localhost}, {@code 127.0.0.1} and {@code [::1]}, plus the bound address
 * itself; bound to every address ({@code 0.0.0.0} or {@code ::}), also each address of the
 * machine's network interfaces (read at start, no DNS). Configured entries are added: {@code
 * host} (at the server's port) or {@code host:port}. A name is matched without regard to case;
 * an entry without a port means the server's own port, so {@code Host: localhost} (port 80) does
 * not reach a server on 8080. {@code "*"} answers to any {@code Host}: only for a server behind a
 * proxy that checks the name itself, since it gives up this protection.
 */
final class AllowedHosts {
  /** A name (letters, digits, hyphens, dots, underscores) or an IPv4 or bracketed IPv6 literal. */
  private static final Pattern NAME = Pattern.compile(
      "[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\\.?");
  static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");

  /** One allowed name; {@code port} -1 means the server's own port. */
  private record Entry(String host, int port) {
    String render(int serverPort) {
      return host + ":" + (port < 0 ? serverPort : port);
    }
  }

  private final boolean any;
  private final List<Entry> entries;

  private AllowedHosts(boolean any, List<Entry> entries) {
    this.any = any;
    this.entries = List.copyOf(entries);
  }

  /** The defaults for {@code bindHost} plus the {@code configured} entries (already valid). */
  static AllowedHosts of(String bindHost, List<String> configured) {
    if (configured.contains("*")) {
      return new AllowedHosts(true, List.of());
    }
    Set<Entry> entries = new LinkedHashSet<>();
    for (String name : defaults(bindHost)) {
      entries.add(parse(name));
    }
    for (String text : configured) {
      entries.add(parse(text));
    }
    return new AllowedHosts(false, new ArrayList<>(entries));
  }

  /** Why {@code text} is not a valid entry, or null when it is one. */
  static String problem(String text) {
    if (text.equals("*")) {
      return null;
    }
    return parse(text) == null
        ? "must be a host name or an IP address, optionally with :port (1-65535), or \"*\""
        : null;
  }

  /** Whether a request with this {@code Host} is for this server, listening on {@code port}. */
  boolean allows(HostAndPort authority, boolean ssl, int serverPort) {
    if (any) {
      return true;
    }
    if (authority == null) {
      return false;
    }
    String host = normalize(authority.host());
    int port = authority.port() >= 0 ? authority.port() : ssl ? 443 : 80;
    return host != null && contains(host, port, serverPort);
  }

  /**
   * Whether {@code host:port} names this server: one of the entries or, when any host is
   * allowed, the request's own {@code Host} (all that is left to compare with).
   */
  boolean names(String host, int port, HostAndPort requestAuthority, boolean ssl,
      int serverPort) {
    String normalized = normalize(host);
    if (normalized == null) {
      return false;
    }
    if (!any) {
      return contains(normalized, port, serverPort);
    }
    if (requestAuthority == null) {
      return false;
    }
    int requestPort = requestAuthority.port() >= 0 ? requestAuthority.port() : ssl ? 443 : 80;
    return normalized.equals(normalize(requestAuthority.host())) && port == requestPort;
  }

  /** The allowed names with their ports, for error messages. */
  String describe(int serverPort) {
    if (any) {
      return "any host";
    }
    List<String> names = new ArrayList<>();
    entries.forEach(e -> names.add(e.render(serverPort)));
    return String.join(", ", names);
  }

  private boolean contains(String host, int port, int serverPort) {
    for (Entry entry : entries) {
      if (entry.host.equals(host) && port == (entry.port < 0 ? serverPort : entry.port)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> defaults(String bindHost) {
    Set<String> names = new LinkedHashSet<>(LOOPBACK);
    String bound = normalize(bindHost);
    if (bound != null && !bound.equals("0.0.0.0") && !bound.equals("[::]")) {
      names.add(bound);
    } else if (bound != null) {
      names.addAll(interfaceAddresses());
    }
    return List.copyOf(names);
  }

  private static List<String> interfaceAddresses() {
    List<String> out = new ArrayList<>();
    try {
      for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress address : Collections.list(nic.getInetAddresses())) {
          if (address instanceof Inet6Address v6 && v6.getScopeId() != 0) {
            continue; // link-local: a browser cannot name it in a Host header without a zone
          }
          out.add(normalize(NetUtil.toAddressString(address)));
        }
      }
    } catch (SocketException e) {
      // no interface list: the loopback names remain
    }
    return out;
  }

  /** {@code host} or {@code host:port} (IPv6 in brackets, or bare without a port); null if bad. */
  private static Entry parse(String text) {
    String host = text;
    int port = -1;
    int colon = text.lastIndexOf(':');
    boolean bracketed = text.startsWith("[");
    if (colon > 0 && (bracketed ? text.lastIndexOf(']') < colon : text.indexOf(':') == colon)) {
      host = text.substring(0, colon);
      String digits = text.substring(colon + 1);
      if (!digits.matches("[0-9]{1,5}") || Integer.parseInt(digits) < 1
          || Integer.parseInt(digits) > 65535) {
        return null;
      }
      port = Integer.parseInt(digits);
    }
    String normalized = normalize(host);
    return normalized == null ? null : new Entry(normalized, port);
  }

  /**
   * A host as it is compared: lower case, IPv6 in its compressed form within brackets (a Host
   * header always brackets it); null if it is neither a name nor an address.
   */
  static String normalize(String host) {
    if (host == null || host.isEmpty()) {
      return null;
    }
    String bare = host.startsWith("[") && host.endsWith("]")
        ? host.substring(1, host.length() - 1) : host;
    if (NetUtil.isValidIpV6Address(bare)) {
      byte[] bytes = NetUtil.createByteArrayFromIpAddressString(bare);
      if (bytes == null || bytes.length != 16 || bare.contains("%")) {
        return null;
      }
      return "[" + NetUtil.bytesToIpAddress(bytes) + "]";
    }
    if (!bare.equals(host) || !NAME.matcher(host).matches()) {
      return null;
    }
    return host.toLowerCase(Locale.ROOT);
  }
}
