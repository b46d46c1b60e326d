package dev.shepherd.runtime.trace;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Tracer;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.tracing.VertxTracer;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a Vert.x instance traces, and the names of the pool's spans and attributes (T1 in
 * docs/rules.md). Tracing is on when the instance was built with tracing options (Vert.x then has
 * a tracer). The pool's spans are made with the {@code OpenTelemetry} that instance traces
 * through: the one given with {@link #use}, else the one Vert.x's OpenTelemetry tracer was built
 * on ({@code new OpenTelemetryTracingFactory(openTelemetry)}), else, when neither can be told,
 * the global one.
 */
public final class Tracing {
  /** The instrumentation scope of the pool's spans. */
  public static final String SCOPE = "dev.shepherd";
  /** A job's time from admission to its first dispatch. */
  public static final String QUEUED = "queued";
  /** One attempt of a job on one slot, from dispatch to its answer. */
  public static final String ATTEMPT = "attempt";

  public static final AttributeKey<String> POOL = AttributeKey.stringKey("shepherd.pool");
  public static final AttributeKey<String> JOB = AttributeKey.stringKey("shepherd.job");
  public static final AttributeKey<Long> ATTEMPT_NUMBER = AttributeKey.longKey("shepherd.attempt");
  public static final AttributeKey<String> SLOT = AttributeKey.stringKey("shepherd.slot");
  /** How the span's part of the job ended: {@code completed}, {@code failed}, ... */
  public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("shepherd.outcome");
  /** Why, when the outcome has a reason (an error code, an interruption, a rejection). */
  public static final AttributeKey<String> REASON = AttributeKey.stringKey("shepherd.reason");

  private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);
  /** The tracer of each tracing Vert.x instance, found once; weak, so a closed instance goes. */
  private static final String VERTX_OPENTELEMETRY_TRACER =
      "io.vertx.tracing.opentelemetry.OpenTelemetryTracer";
  private static final Map<Object, Tracer> TRACERS = new WeakHashMap<>();

  private Tracing() {}

  /**
   * Makes the pools on {@code vertx} start their spans with {@code openTelemetry} (under this
   * scope), for an application whose Vert.x tracer does not tell which it uses.
   */
  public static void use(Vertx vertx, OpenTelemetry openTelemetry) {
    synchronized (TRACERS) {
      TRACERS.put(vertx, openTelemetry.getTracer(SCOPE));
    }
  }

  /** True when {@code vertx} has a tracer: only then does the pool capture or make anything. */
  public static boolean on(Vertx vertx) {
    return vertx instanceof VertxInternal internal && internal.tracer() != null;
  }

  /** The tracer the pool's spans on {@code vertx} start from (see the class comment). */
  static Tracer tracer(Vertx vertx) {
    synchronized (TRACERS) {
      Tracer given = TRACERS.get(vertx);
      if (given != null) {
        return given;
      }
      VertxTracer<?, ?> vertxTracer = vertx instanceof VertxInternal internal
          ? internal.tracer() : null;
      Tracer found = vertxTracer == null ? null : TRACERS.get(vertxTracer);
      if (found == null) {
        found = vertxsOwn(vertxTracer);
        if (vertxTracer != null) {
          TRACERS.put(vertxTracer, found);
        }
      }
      return found;
    }
  }

  /**
   * The OpenTelemetry tracer inside Vert.x's own (vertx-opentelemetry keeps it in a private
   * field), so the pool's spans go where the application's Vert.x spans go; the global one when
   * it cannot be read.
   */
  private static Tracer vertxsOwn(VertxTracer<?, ?> vertxTracer) {
    if (vertxTracer != null
        && vertxTracer.getClass().getName().equals(VERTX_OPENTELEMETRY_TRACER)) {
      try {
        Field field = vertxTracer.getClass().getDeclaredField("tracer");
        field.setAccessible(true);
        if (field.get(vertxTracer) instanceof Tracer tracer) {
          return tracer;
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.warn("could not read the OpenTelemetry tracer of Vert.x ({}); the pools' spans use"
            + " the global OpenTelemetry (Tracing.use names another)", e.toString());
      }
    }
    return GlobalOpenTelemetry.getTracer(SCOPE);
  }
}
