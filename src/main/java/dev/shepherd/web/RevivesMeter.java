package dev.shepherd.web;

import dev.shepherd.core.Notice;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code shepherd_revives_total{pool, coordinator, by}}: retired slots put back in service, {@code
 * by} an {@code operator} or by {@code reviveAfterMs}, counted from the pool's {@link
 * Notice.Revived} notices (a pool coordinated here) or its {@code revive} events (a pool
 * coordinated on another node) since the meters were attached (before the HTTP server listens, in
 * the application, for the pools of this node).
 */
final class RevivesMeter {
  private final AtomicLong byOperator = new AtomicLong();
  private final AtomicLong byTime = new AtomicLong();

  /** Registers both series; adds them to {@code meters} so the pool's meters remove them. */
  RevivesMeter(MeterRegistry registry, String pool, String coordinator, List<Meter> meters) {
    meters.add(counter(registry, pool, coordinator, "operator", byOperator));
    meters.add(counter(registry, pool, coordinator, "reviveAfterMs", byTime));
  }

  void count(Notice notice) {
    if (notice instanceof Notice.Revived revived) {
      (revived.byOperator() ? byOperator : byTime).incrementAndGet();
    }
  }

  /** A {@code revive} event a remote pool published ({@code by}: who revived). */
  void count(JsonObject event) {
    if ("revive".equals(event.getValue("type"))) {
      Object by = event.getValue("by");
      if ("operator".equals(by)) {
        byOperator.incrementAndGet();
      } else if ("reviveAfterMs".equals(by)) {
        byTime.incrementAndGet();
      }
    }
  }

  private static Meter counter(MeterRegistry registry, String pool, String coordinator,
      String by, AtomicLong n) {
    return FunctionCounter.builder("shepherd.revives", n, AtomicLong::doubleValue)
        .description("Retired slots put back in service (not restarts), by whom")
        .tag("pool", pool).tag("coordinator", coordinator).tag("by", by).register(registry);
  }
}
