package dev.shepherd.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.bench.LoopbackPorts;
import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.runtime.ChildJvm;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the launcher says to the person who starts it, in a child JVM: {@code --help} is
 * Shepherd's own usage (its flags, the environment it reads, its exit statuses), and a start
 * that fails on a busy port says which address and port in one line, with no stack trace, and
 * exits non-zero.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StartupMessagesTest {
  private static final String DEMO_POOL = "{\"worker\": {\"class\":"
      + " \"dev.shepherd.demo.DemoWorker\", \"instances\": 1}}";

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h", "-help"})
  void help_prints_shepherds_own_flags_and_environment_and_exits_0(String flag) {
    try (ChildJvm child = ChildJvm.start(ChildJvm.currentJava(), Main.class, flag)) {
      int status = child.waitFor(Duration.ofSeconds(30));

      assertThat(status).as(child.stderr()).isZero();
      assertThat(child.stdout()).startsWith("Usage: java -jar shepherd.jar")
          .contains("-conf <file|json>", "-cluster, -c", "-options", "-h, -help, --help",
              ClusterSettings.NAME, ClusterSettings.MEMBERS, ClusterSettings.HOST,
              ClusterSettings.PORT, ClusterSettings.MAJORITY, "SHEPHERD_TOKEN")
          .doesNotContain("VertxApplication", "mainVerticle");
      assertThat(child.stderr()).isBlank();
    }
  }

  @Test
  void the_help_states_each_cluster_variable_with_its_default() {
    String help = Usage.text();

    assertThat(help).contains("(default " + ClusterSettings.DEFAULT_NAME + ")",
        "(default " + ClusterSettings.DEFAULT_PORT + ")",
        "(default " + ClusterSettings.DEFAULT_MAJORITY + ";",
        "Exit status: 0 after a graceful stop", Main.INVALID_CONFIGURATION + " for an invalid");
  }

  @Test
  void a_busy_http_port_is_named_in_one_line_without_a_stack_trace_and_exits_non_zero()
      throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      String conf = "{\"http\": {\"host\": \"127.0.0.1\", \"port\": " + port + "},"
          + " \"pools\": [" + DEMO_POOL + "]}";
      try (ChildJvm child = ChildJvm.start(ChildJvm.currentJava(), Main.class, "-conf", conf)) {
        int status = child.waitFor(Duration.ofSeconds(60));

        assertThat(status).isEqualTo(Main.START_FAILED);
        assertThat(lines(child)).containsExactly("shepherd: failed to start: http: 127.0.0.1:"
            + port + " is already in use (set http.port, or 0 for a free one)");
      }
    }
  }

  @Test
  void a_cluster_whose_ports_are_all_busy_is_named_in_one_line_without_a_stack_trace()
      throws IOException {
    int first = LoopbackPorts.freeClusterBlock(new SplittableRandom());
    List<ServerSocket> taken = new ArrayList<>();
    try {
      for (int i = 0; i < ClusterSettings.PORT_COUNT; i++) {
        taken.add(new ServerSocket(first + i, 1, InetAddress.getLoopbackAddress()));
      }
      Map<String, String> env = Map.of(ClusterSettings.PORT, String.valueOf(first),
          ClusterSettings.HOST, "127.0.0.1", ClusterSettings.MEMBERS, "127.0.0.1",
          ClusterSettings.NAME, "busy-" + first);
      String conf = new JsonObject().put("http", new JsonObject().put("enabled", false))
          .put("pools", new JsonArray().add(new JsonObject(DEMO_POOL))).encode();
      try (ChildJvm child = ChildJvm.start(ChildJvm.currentJava(), env, List.of(), Main.class,
          "-cluster", "-conf", conf)) {
        int status = child.waitFor(Duration.ofSeconds(60));

        assertThat(status).isEqualTo(Main.VERTX_FAILED);
        assertThat(lines(child)).containsExactly("shepherd: failed to start: cluster: 127.0.0.1:"
            + first + "-" + (first + ClusterSettings.PORT_COUNT - 1) + " are all in use (set "
            + ClusterSettings.PORT + " to another first port)");
      }
    } finally {
      for (ServerSocket socket : taken) {
        socket.close();
      }
    }
  }

  /** Everything the child printed, both streams, blank lines left out. */
  private static List<String> lines(ChildJvm child) {
    return Stream.concat(child.stdout().lines(), child.stderr().lines())
        .filter(line -> !line.isBlank()).toList();
  }
}
