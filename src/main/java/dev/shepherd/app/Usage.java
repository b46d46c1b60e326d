package dev.shepherd.app;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.web.HttpConfig;
import java.util.Locale;

/**
 * What {@code java -jar shepherd.jar --help} prints: the launcher's flags that a Shepherd node
 * uses, the environment it reads and its exit statuses. Names and defaults come from the classes
 * that read them, so the text cannot name a variable the node does not read.
 */
final class Usage {
  /** The status after a help request: it is an answer, not a failure. */
  static final int HELP = 0;

  private Usage() {}

  /** Whether {@code args} ask for help ({@code -h}, {@code -help}, {@code --help}, any case). */
  static boolean requested(String[] args) {
    for (String arg : args) {
      String flag = arg.toLowerCase(Locale.ROOT);
      if (flag.equals("-h") || flag.equals("-help") || flag.equals("--help")) {
        return true;
      }
    }
    return false;
  }

  static String text() {
    return """
        Usage: java -jar shepherd.jar [-conf <file|json>] [-cluster] [-options <file|json>]

        Shepherd runs supervised, bounded worker pools on the Vert.x event bus: the pools, the
        worker hosts and the HTTP server (API, live view, /metrics, /health) that its
        configuration describes. Without -conf it runs the embedded %s: one demo
        pool, served on http://127.0.0.1:8080/.

        Options:
          -conf <file|json>        the node's configuration, a JSON file or a JSON object with
                                   "http", "pools" and (with -cluster) "hosts"; checked before
                                   anything starts (see docs/configuration.md)
          -cluster, -c             join a Hazelcast cluster (the environment below): every node
                                   serves every pool of the cluster, worker hosts may register
                                   with a pool, and pools may be highly available
          -cluster-host <address>  the address of this node's event bus for clustered messages
                                   (default: one Vert.x picks)
          -cluster-port <port>     its port (default: a free one)
          -options <file|json>     Vert.x options (VertxOptions as JSON), e.g.
                                   {"eventLoopPoolSize": 4}
          -h, -help, --help        print this help and exit

        Environment, with -cluster:
          %-26s the cluster's name: nodes join only a cluster of the same name
                                     (default %s)
          %-26s comma-separated host[:port] of the members to join (default
                                     %s); one without a port is sought on the %d
                                     ports from %s
          %-26s the address this node binds and announces (default %s)
          %-26s the first cluster port this node tries; it takes the first
                                     free one of %d (default %d)
          %-26s how many members make a majority, without which no node
                                     leads a highly available pool (default %d; 1 for a
                                     cluster of one)
          (java -D%s=<file> -jar …: that Hazelcast configuration instead,
          and these variables are ignored)

        Environment, any node:
          %-26s the bearer token that state-changing HTTP requests need,
                                     unless http.token sets one (http.tokenEnv names another
                                     variable)
          HOSTNAME                   the default id of a worker host (hosts[].id)

        Exit status: 0 after a graceful stop (SIGTERM drains every pool) or this help,
        %d for an invalid configuration, %d when the cluster refused a worker host's id,
        %d when Vert.x or the cluster could not start, %d when the node could not start
        (a port in use, say).
        """.formatted(AppConfig.DEFAULT_RESOURCE,
            ClusterSettings.NAME, ClusterSettings.DEFAULT_NAME,
            ClusterSettings.MEMBERS, ClusterSettings.DEFAULT_HOST, ClusterSettings.PORT_COUNT,
            ClusterSettings.PORT,
            ClusterSettings.HOST, ClusterSettings.DEFAULT_HOST,
            ClusterSettings.PORT, ClusterSettings.PORT_COUNT, ClusterSettings.DEFAULT_PORT,
            ClusterSettings.MAJORITY, ClusterSettings.DEFAULT_MAJORITY,
            ClusterSetup.REPLACEMENT_PROPERTY, HttpConfig.DEFAULT_TOKEN_ENV,
            Main.INVALID_CONFIGURATION, Main.HOST_REFUSED, Main.VERTX_FAILED, Main.START_FAILED);
  }
}
