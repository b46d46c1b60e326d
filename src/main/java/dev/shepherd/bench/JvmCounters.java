package dev.shepherd.bench;

import io.vertx.core.json.JsonObject;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * What a JVM has spent so far on things a benchmark round should not contain: time in garbage
 * collections (and their count) and time the JIT compilers worked. A round's difference of two
 * readings says whether warm-up was long enough (JIT time) and whether a collection fell into it.
 * Travels as JSON, so a child node can answer with its own.
 */
record JvmCounters(long gcMillis, long gcCount, long jitMillis) {

  /** This JVM's counters now. */
  static JvmCounters now() {
    long gcMillis = 0;
    long gcCount = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcMillis += Math.max(0, gc.getCollectionTime());
      gcCount += Math.max(0, gc.getCollectionCount());
    }
    var jit = ManagementFactory.getCompilationMXBean();
    long jitMillis = jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime() : 0;
    return new JvmCounters(gcMillis, gcCount, jitMillis);
  }

  /** What was spent between {@code before} and this reading. */
  JvmCounters since(JvmCounters before) {
    return new JvmCounters(gcMillis - before.gcMillis, gcCount - before.gcCount,
        jitMillis - before.jitMillis);
  }

  JvmCounters plus(JvmCounters other) {
    return new JvmCounters(gcMillis + other.gcMillis, gcCount + other.gcCount,
        jitMillis + other.jitMillis);
  }

  JsonObject toJson() {
    return new JsonObject().put("gcMillis", gcMillis).put("gcCount", gcCount)
        .put("jitMillis", jitMillis);
  }

  static JvmCounters fromJson(JsonObject json) {
    return new JvmCounters(json.getLong("gcMillis"), json.getLong("gcCount"),
        json.getLong("jitMillis"));
  }
}
