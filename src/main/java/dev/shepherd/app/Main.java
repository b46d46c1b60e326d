package dev.shepherd.app;

import dev.shepherd.cluster.setup.ClusterSettings;
import dev.shepherd.cluster.setup.ClusterSetup;
import dev.shepherd.cluster.trust.ClusterKeys;
import dev.shepherd.cluster.trust.EventBusTls;
import dev.shepherd.core.ConfigException;
import dev.shepherd.web.Metrics;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.launcher.application.ExitCodes;
import io.vertx.launcher.application.HookContext;
import io.vertx.launcher.application.VertxApplication;
import io.vertx.launcher.application.VertxApplicationHooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The launcher: Vert.x's application launcher ({@code -conf}, {@code -cluster}, …) deploying
 * {@link ShepherdVerticle}. Configuration is checked before Vert.x starts: an invalid one prints
 * one line naming the field and the value, and the process exits with status 2. A graceful stop
 * (SIGTERM) drains every pool and then exits with status 0. Vert.x starts with Micrometer metrics
 * (Prometheus) enabled unless {@code -options} configure metrics themselves, so {@code GET
 * /metrics} has Vert.x's meters beside the pools' own.
 *
 * <p>With {@code -cluster}, Vert.x joins the Hazelcast cluster the environment describes ({@link
 * ClusterSettings}: {@code SHEPHERD_CLUSTER_MEMBERS}, {@code _HOST}, {@code _NAME}, {@code
 * _PORT}; a bad value is an invalid configuration), and the configuration may hold {@code
 * hosts}. The cluster's trust boundary comes from the environment too (docs/security.md): the
 * event bus's TLS with mutual authentication ({@link EventBusTls}, {@code
 * SHEPHERD_EVENTBUS_TLS_*}) and the cluster key ({@link ClusterKeys}, {@code
 * SHEPHERD_CLUSTER_KEY}); a store that does not open, or a malformed key, is an invalid
 * configuration naming the variable. When a pool refuses a worker host's id (another live host has it), the node stops and
 * exits with status 3, printing one line that names {@code hosts[i].id}.
 *
 * <p>{@code -h}, {@code -help} or {@code --help} prints Shepherd's own usage ({@link Usage}) and
 * exits 0. A start that fails (a busy port, a cluster that cannot be joined) prints one line
 * saying why, naming the address and port where it knows them, and no stack trace, and exits
 * with status 11 (Vert.x or the cluster did not start) or 15 (the node did not start).
 */
public final class Main implements VertxApplicationHooks {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);
  static final int INVALID_CONFIGURATION = 2;
  static final int HOST_REFUSED = 3;
  /** Vert.x (or its cluster) did not start: the launcher's own status for it. */
  static final int VERTX_FAILED = ExitCodes.VERTX_INITIALIZATION;
  /** The application did not start (a port in use, …): the launcher's own status for it. */
  static final int START_FAILED = ExitCodes.VERTX_DEPLOYMENT;

  private final boolean clustered;
  private volatile ClusterSettings cluster;
  private volatile EventBusTls tls;
  private volatile ClusterKeys keys = ClusterKeys.NONE;
  /** The status a stop after a successful start exits with. */
  private volatile int exitStatus;

  /** The hooks of a node that is not clustered. */
  public Main() {
    this(false);
  }

  Main(boolean clustered) {
    this.clustered = clustered;
  }

  public static void main(String[] args) {
    if (Usage.requested(args)) {
      // Vert.x's launcher would print its own generic usage, naming a main verticle to give.
      System.out.print(Usage.text());
      System.exit(Usage.HELP);
    }
    System.setProperty("hazelcast.logging.type", "slf4j");
    String unreadable = unreadableConf(args);
    if (unreadable != null) {
      // Vert.x's launcher would only warn and run with no configuration, i.e. the default one.
      System.err.println("shepherd: invalid configuration: -conf: " + unreadable);
      System.exit(INVALID_CONFIGURATION);
    }
    int code = new VertxApplication(args, new Main(clustered(args))).launch();
    if (code != 0) {
      System.exit(code);
    }
  }

  @Override
  public JsonObject afterConfigParsed(JsonObject config) {
    JsonObject effective;
    try {
      effective = Launch.effectiveConfig(config);
      AppConfig.parse(effective, clustered);
      if (clustered) {
        cluster = ClusterSettings.fromEnvironment(System.getenv());
        tls = EventBusTls.fromEnvironment(System.getenv());
        keys = ClusterKeys.fromEnvironment(System.getenv());
      }
    } catch (ConfigException | DecodeException | ClassCastException e) {
      System.err.println("shepherd: invalid configuration: " + e.getMessage());
      System.exit(INVALID_CONFIGURATION);
      return config;
    }
    String unbindable = clustered ? ClusterSetup.bindProblem(cluster) : null;
    if (unbindable != null) {
      System.err.println("shepherd: failed to start: " + unbindable);
      System.exit(VERTX_FAILED);
    }
    return effective;
  }

  /**
   * After a graceful stop (SIGTERM: the pools drained, every waiting caller answered), exit 0
   * rather than the JVM's 143 (or 3 after a refused host). Only once the application had
   * deployed: a failed start keeps its own non-zero status.
   */
  @Override
  public void afterVertxStopped(HookContext context) {
    if (context.deploymentId() != null) {
      Runtime.getRuntime().halt(exitStatus);
    }
  }

  /** Whether the arguments ask for a clustered Vert.x. */
  static boolean clustered(String[] args) {
    for (String arg : args) {
      if (arg.equals("-cluster") || arg.equals("--cluster") || arg.equals("-c")) {
        return true;
      }
    }
    return false;
  }

  /**
   * A pool refused a worker host's id: one line naming the field, then a graceful stop (pools on
   * this node drain) and exit status 3. From a thread of its own, so the stop can use the
   * event loop this is called on.
   */
  private void hostRefused(ConfigException refusal) {
    System.err.println("shepherd: refused by the cluster: " + refusal.getMessage());
    exitStatus = HOST_REFUSED;
    new Thread(() -> System.exit(HOST_REFUSED), "shepherd-exit").start();
  }

  /** Why the {@code -conf} argument is neither a JSON file nor a JSON object, or null. */
  static String unreadableConf(String[] args) {
    String conf = null;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if ((arg.equals("-conf") || arg.equals("--conf")) && i + 1 < args.length) {
        conf = args[i + 1];
      } else if (arg.startsWith("-conf=") || arg.startsWith("--conf=")) {
        conf = arg.substring(arg.indexOf('=') + 1);
      }
    }
    if (conf == null) {
      return null;
    }
    try {
      Path path = Path.of(conf);
      if (Files.isRegularFile(path)) {
        try {
          new JsonObject(Buffer.buffer(Files.readAllBytes(path)));
          return null;
        } catch (DecodeException e) {
          return "file " + conf + " is not a JSON object (" + firstLine(e.getMessage()) + ")";
        }
      }
    } catch (InvalidPathException | IOException e) {
      // not a file name: read it as JSON below
    }
    try {
      new JsonObject(conf);
      return null;
    } catch (DecodeException e) {
      return "neither a readable file nor a JSON object (was \"" + firstLine(conf) + "\")";
    }
  }

  private static String firstLine(String text) {
    String line = text == null ? "" : text.lines().findFirst().orElse("");
    return line.length() > 80 ? line.substring(0, 80) + "…" : line;
  }

  @Override
  public VertxBuilder createVertxBuilder(VertxOptions options) {
    if (options.getMetricsOptions() == null || !options.getMetricsOptions().isEnabled()) {
      options.setMetricsOptions(Metrics.vertxMetricsOptions());
    }
    if (clustered && tls != null) {
      tls.applyTo(options.getEventBusOptions());
    }
    VertxBuilder builder = Vertx.builder().with(options);
    TracingSetup.apply(System.getenv(), options, builder);
    if (clustered) {
      ClusterSettings settings = cluster;
      builder.withClusterManager(ClusterSetup.clusterManager(settings != null ? settings
          : ClusterSettings.fromEnvironment(System.getenv())));
    }
    return builder;
  }

  /** The cluster key, on the Vert.x the pools and hosts of this node run on. */
  @Override
  public void afterVertxStarted(HookContext context) {
    if (clustered) {
      ClusterKeys.install(context.vertx(), keys);
      LOG.info("cluster trust: event bus {}, cluster"
          + " key {}", tls == null ? "in clear (no SHEPHERD_EVENTBUS_TLS_KEYSTORE)"
          : "TLS with client certificates (" + tls.keyStore() + ", trusting "
          + tls.trustStore() + ")", keys.present() ? "set (HA records sealed, worker hosts"
          + " authenticated)" : "not set (no SHEPHERD_CLUSTER_KEY)");
    }
  }

  @Override
  public java.util.function.Supplier<? extends io.vertx.core.Deployable> verticleSupplier() {
    return () -> new ShepherdVerticle(this::hostRefused);
  }

  /**
   * The node could not start: one line, and exit at once, before the launcher logs the failure
   * again with its stack trace (it calls this hook first). The pools that had started drain as
   * Vert.x closes.
   */
  @Override
  public void afterFailureToDeployVerticle(HookContext context, Throwable cause) {
    System.err.println("shepherd: failed to start: " + StartFailures.describe(cause));
    System.exit(START_FAILED);
  }

  /** Vert.x (with the cluster, under {@code -cluster}) could not start: one line, and exit. */
  @Override
  public void afterFailureToStartVertx(HookContext context, Throwable cause) {
    System.err.println("shepherd: Vert.x failed to start"
        + (clustered ? " (joining the cluster)" : "") + ": " + StartFailures.describe(cause));
    System.exit(VERTX_FAILED);
  }
}
