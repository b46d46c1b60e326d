package dev.shepherd.runtime.payload;

import dev.shepherd.runtime.PoolConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the pools of one JVM can fill its heap with queued jobs: the check behind the startup
 * warning. A pool's backlog holds at most {@code backlogMaxBytes} of payloads, counted as they
 * take heap ({@link RawJson} bytes for HTTP bodies, an estimate for decoded payloads), plus about
 * {@value #PER_JOB_BYTES} bytes of bookkeeping per queued job up to {@code backlogCapacity}. The
 * sum over all pools should stay within half the maximum heap, which leaves the other half for
 * running jobs (a worker gets its payload decoded), requests being read and the rest of the
 * application.
 *
 * <p>{@code backlogCapacity × http.maxBodyBytes} (a full backlog of the largest bodies) is not a
 * bound of its own: the byte budget stops a backlog first. By default it is 1000 × 1 MiB, more
 * than most heaps, and that is safe as long as the budgets are; the warning names it only beside
 * a budget that is not.
 */
public final class MemoryBudget {
  /** Heap a queued job takes besides its payload (the core's job record, its id, its entry). */
  static final long PER_JOB_BYTES = 200;

  private MemoryBudget() {}

  /**
   * One line per pool when the pools' budgets together exceed half of {@code maxHeap}; none when
   * they fit. {@code maxBodyBytes} is the HTTP server's limit (0 without one).
   */
  public static List<String> warnings(List<PoolConfig> pools, long maxBodyBytes, long maxHeap) {
    long total = 0;
    for (PoolConfig pool : pools) {
      total = saturatedAdd(total, bound(pool));
    }
    List<String> lines = new ArrayList<>();
    if (total <= maxHeap / 2) {
      return lines;
    }
    for (PoolConfig pool : pools) {
      int capacity = pool.settings().backlogCapacity();
      String bodies = maxBodyBytes <= 0 ? ""
          : String.format(Locale.ROOT, "; backlogCapacity %d × http.maxBodyBytes %s = %s",
              capacity, size(maxBodyBytes), size(capacity * maxBodyBytes));
      lines.add(String.format(Locale.ROOT, "pool %s: queued jobs may hold %s of heap"
          + " (backlogMaxBytes %s + backlogCapacity %d × ~%d B of bookkeeping%s); all pools"
          + " together %s, more than half of the maximum heap %s: lower backlogMaxBytes or raise"
          + " -Xmx", pool.name(), size(bound(pool)), size(pool.settings().backlogMaxBytes()),
          capacity, PER_JOB_BYTES, bodies, size(total), size(maxHeap)));
    }
    return lines;
  }

  /** The heap one pool's queued jobs may take. */
  static long bound(PoolConfig pool) {
    return saturatedAdd(pool.settings().backlogMaxBytes(),
        pool.settings().backlogCapacity() * PER_JOB_BYTES);
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }

  static String size(long bytes) {
    if (bytes >= Long.MAX_VALUE / 2) {
      return "unlimited";
    }
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
    if (bytes >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
    return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
  }
}
