package dev.shepherd.runtime.trace;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Tracer;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;

/**
 * Whether a Vert.x instance traces, and the names of the pool's spans and attributes (T1 in
 * docs/rules.md). Tracing is on when the instance was built with tracing options (Vert.x then has
 * a tracer); the pool's spans are made with the global {@code OpenTelemetry}, the one Vert.x's
 * OpenTelemetry tracer uses unless it was given another.
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

  private Tracing() {}

  /** True when {@code vertx} has a tracer: only then does the pool capture or make anything. */
  public static boolean on(Vertx vertx) {
    return vertx instanceof VertxInternal internal && internal.tracer() != null;
  }

  static Tracer tracer() {
    return GlobalOpenTelemetry.getTracer(SCOPE);
  }
}
