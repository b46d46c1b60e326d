package dev.shepherd.runtime.payload;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * What one large array costs on this JVM's heap. With the G1 collector (the default) an array of
 * half a heap region or more is "humongous": it gets whole regions of its own, so a 1 MiB payload
 * plus its 16-byte header takes two 1 MiB regions, twice its size (regions are 1 MiB on heaps
 * under 2 GiB, 2 MiB under 4 GiB, and so on). {@code QueuedJobFootprint payloads} measures it:
 * 2,097,334 heap bytes per queued 1 MiB payload with 1 MiB regions, 1,048,749 with 4 MiB ones.
 */
public final class HeapCost {
  /** The G1 region size in bytes, or 0 when another collector (no such rounding) runs. */
  static final long REGION = g1RegionSize();
  private static final int ARRAY_HEADER = 16;

  private HeapCost() {}

  /**
   * The heap an array of {@code length} bytes takes, counted as its length while it is small, and
   * as the whole regions it occupies once it is humongous.
   */
  public static long ofBytes(long length) {
    long size = length + ARRAY_HEADER;
    if (REGION == 0 || size < REGION / 2) {
      return length;
    }
    return (size + REGION - 1) / REGION * REGION;
  }

  private static long g1RegionSize() {
    try {
      HotSpotDiagnosticMXBean hotspot =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      if (hotspot == null || !"true".equals(hotspot.getVMOption("UseG1GC").getValue())) {
        return 0;
      }
      return Long.parseLong(hotspot.getVMOption("G1HeapRegionSize").getValue());
    } catch (RuntimeException | LinkageError e) {
      return 0;
    }
  }
}
