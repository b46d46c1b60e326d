package dev.shepherd.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.access.BusPoolHandle;
import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** T3 in docs/rules.md: {@code HEAD} is served wherever {@code GET} is, without a body. */
class HeadRequestsTest {
  /** Headers that may differ between two answers to the same request. */
  private static final Set<String> VARYING = Set.of("date", "content-length");
  private static final Set<String> FILES = Set.of("/", "/index.html", "/js/main.js");

  private static Http.Response head(String url) {
    return Http.send(HttpRequest.newBuilder(URI.create(url))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
  }

  @Test
  void T3_every_get_route_answers_head_with_its_status_and_headers_and_no_body() {
    try (WebTestApp app = WebTestApp.start(WebTestApp.config(null,
        WebTestApp.demoPool("jobs", 1)))) {
      JsonObject admission = Http.submit(app, "jobs", new JsonObject().put("job", "j1")
          .put("payload", 1));
      assertThat(admission.getString("type")).isEqualTo("accepted");
      List<String> paths = List.of("/", "/index.html", "/js/main.js", "/api/pools",
          "/api/pools/jobs", "/api/pools/nope", "/api/pools/jobs/events",
          "/api/pools/jobs/jobs/j1", "/api/pools/jobs/jobs/unknown",
          "/api/pools/jobs/jobs/j1?wait=true&timeoutMs=5000", "/api/pools/jobs/jobs/j1?wait=x",
          "/api/pools/jobs/dead", "/api/pools/jobs/dead?limit=0", "/api/pools/jobs/dead/none",
          "/metrics", "/health", "/ready", "/no/such/route");
      for (String path : paths) {
        Http.Response get = Http.get(app.url(path));
        Http.Response head = head(app.url(path));
        assertThat(head.status()).as("HEAD " + path).isEqualTo(get.status());
        assertThat(head.body()).as("HEAD " + path).isEmpty();
        assertThat(names(head)).as("HEAD " + path).isEqualTo(names(get));
        assertThat(head.headers().firstValue("Content-Type"))
            .as("HEAD " + path).isEqualTo(get.headers().firstValue("Content-Type"));
        boolean file = FILES.contains(path);
        if (file || head.headers().firstValue("Content-Length").isPresent()
            && !path.equals("/metrics")) {
          assertThat(head.headers().firstValue("Content-Length")).as("HEAD " + path)
              .isEqualTo(get.headers().firstValue("Content-Length"));
        }
      }
    }
  }

  @Test
  void T3_the_router_has_a_head_route_beside_every_get_route() {
    Vertx vertx = Vertx.vertx();
    try {
      MapPoolDirectory directory = new MapPoolDirectory();
      directory.put(new BusPoolHandle(vertx, "far", new Addresses("remote.far"), "node-x",
          1_000, 1_000));
      WebServer server = new WebServer(vertx, new HttpConfig("127.0.0.1", 0, 1 << 20, null),
          directory);
      ClusteredWebNode.join(server.start(), 10);
      Set<String> get = new TreeSet<>();
      Set<String> head = new TreeSet<>();
      for (Route route : server.routes()) {
        Set<HttpMethod> methods = route.methods();
        if (methods == null || methods.isEmpty() || route.getPath() == null) {
          continue;
        }
        if (methods.contains(HttpMethod.GET)) {
          get.add(route.getPath());
        }
        if (methods.contains(HttpMethod.HEAD)) {
          head.add(route.getPath());
        }
      }
      assertThat(get).contains("/metrics", "/health", "/ready", "/api/pools",
          "/api/pools/:pool");
      assertThat(head).containsAll(get);
    } finally {
      ClusteredWebNode.join(vertx.close(), 10);
    }
  }

  private static Set<String> names(Http.Response r) {
    Set<String> names = new TreeSet<>();
    r.headers().map().keySet().stream().map(String::toLowerCase)
        .filter(n -> !VARYING.contains(n)).forEach(names::add);
    return names;
  }
}
