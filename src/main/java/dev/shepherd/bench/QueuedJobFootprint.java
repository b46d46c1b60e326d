package dev.shepherd.bench;

import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

/**
 * Heap bytes the pool holds per queued job at a backlog of 1,000,000 (the memory side of P7 in
 * docs/rules.md): one slot busy, then a million unkeyed submits with one shared payload and
 * replyTo. Used heap is measured after forced collections before and after the fill, over several rounds, twice:
 * with the job id strings allocated before the first measurement (the pool's own bytes per job) and
 * with the ids allocated during the fill (what a caller's short ids add); and once with ids the
 * pool generates ({@code job-N}, the common case for submitters that do not name their jobs).
 *
 * <p>With {@code payloads} it measures instead what a queued job costs with a 1 MiB payload (a
 * string, and an array of empty objects {@code [{},{},…]}) held the two ways the pool can hold
 * it: decoded into a tree (as a bus or in-JVM submit hands it over; the figure beside it is what
 * the pool counts against {@code backlogMaxBytes} for it, its estimate), and as the raw bytes an
 * HTTP body arrives in ({@code RawJson}; counted as its length).
 *
 * <pre>
 * mvn -B -o -q -DskipTests package
 * java -cp target/shepherd.jar dev.shepherd.bench.QueuedJobFootprint [jobs] [rounds]
 * java -Xmx2g -cp target/shepherd.jar dev.shepherd.bench.QueuedJobFootprint payloads [jobs]
 * </pre>
 */
public final class QueuedJobFootprint {
  private static final Object PAYLOAD = "shared payload";
  private static final Object REPLY_TO = "shared replyTo";

  private QueuedJobFootprint() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("payloads")) {
      payloads(args.length > 1 ? Integer.parseInt(args[1]) : 16);
      return;
    }
    int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.out.printf("queued jobs per round: %,d; rounds: %d; %s%n", jobs, rounds,
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    for (int round = 1; round <= rounds; round++) {
      double own = measure(memory, jobs, Ids.BEFORE);
      double withIds = measure(memory, jobs, Ids.DURING);
      double generated = measure(memory, jobs, Ids.GENERATED);
      System.out.printf("round %d: %.1f bytes/queued job held by the pool (caller's ids excluded),"
          + " %.1f with its short id strings, %.1f with generated ids%n", round, own, withIds,
          generated);
    }
  }

  /** Where job ids come from. */
  private enum Ids { BEFORE, DURING, GENERATED }

  /** Bytes per queued job; the ids are allocated before the first measurement if asked. */
  private static double measure(MemoryMXBean memory, int jobs, Ids source) {
    String[] ids = source == Ids.BEFORE ? ids(jobs) : null;
    long before = usedAfterGc(memory);
    Pool pool = fill(jobs, ids, source == Ids.GENERATED);
    long after = usedAfterGc(memory);
    // Keep both alive across the second measurement.
    if (pool.backlogLength() != jobs || (ids != null && ids.length != jobs)) {
      throw new IllegalStateException("lost jobs");
    }
    return (double) (after - before) / jobs;
  }

  private static String[] ids(int jobs) {
    String[] ids = new String[jobs];
    for (int i = 0; i < jobs; i++) {
      ids[i] = Integer.toString(i, 36);
    }
    return ids;
  }

  /** One busy slot and {@code jobs} queued jobs; ids from {@code ids}, or made on the fly. */
  private static Pool fill(int jobs, String[] ids, boolean generated) {
    PoolSettings settings = PoolSettings.defaults("footprint", 1)
        .withSlots(List.of(new SlotSpec("w-0", 1)))
        .withBacklogCapacity(jobs)
        .withJobTimeoutMs(0);
    Pool pool = Pool.create(settings);
    pool.start();
    pool.apply(new PoolEvent.WorkerCreated("w-0", 1, 0));
    pool.apply(new PoolEvent.Submit("-running", PAYLOAD, null, REPLY_TO, 0, 0));
    for (int i = 0; i < jobs; i++) {
      String id = generated ? null : ids != null ? ids[i] : Integer.toString(i, 36);
      pool.apply(new PoolEvent.Submit(id, PAYLOAD, null, REPLY_TO, 0, 0));
    }
    if (pool.backlogLength() != jobs) {
      throw new IllegalStateException("backlog " + pool.backlogLength());
    }
    return pool;
  }

  private static long usedAfterGc(MemoryMXBean memory) {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  // ---- 1 MiB payloads -------------------------------------------------------------------------

  private static final int MIB = 1 << 20;

  private static void payloads(int jobs) {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.out.printf("1 MiB payloads, %d queued jobs per measurement, max heap %d MiB; %s%n",
        jobs, Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    String string = "\"" + "x".repeat(MIB - 2) + "\"";
    StringBuilder array = new StringBuilder(MIB).append('[');
    while (array.length() < MIB - 3) {
      array.append("{},");
    }
    array.setLength(array.length() - 1);
    String empties = array.append(']').toString();
    for (int round = 1; round <= 2; round++) {
      for (String[] payload : new String[][] {{"string", string}, {"[{},{},…]", empties}}) {
        String body = "{\"payload\":" + payload[1] + "}";
        long[] decoded = queue(memory, jobs, body, false);
        long[] raw = queue(memory, jobs, body, true);
        System.out.printf("round %d: %-9s (%,d bytes): decoded tree %,d B/job (counted %,d);"
            + " raw bytes %,d B/job (counted %,d)%n", round, payload[0], payload[1].length(),
            decoded[0], decoded[1], raw[0], raw[1]);
      }
    }
  }

  /**
   * Heap per queued job and what it counts, with {@code jobs} jobs of {@code body} queued behind
   * one busy slot: submitted as bytes (raw) or as a decoded JSON object (tree).
   */
  private static long[] queue(MemoryMXBean memory, int jobs, String body, boolean raw) {
    io.vertx.core.buffer.Buffer bytes = io.vertx.core.buffer.Buffer.buffer(body);
    PoolSettings settings = PoolSettings.defaults("footprint", 1)
        .withSlots(List.of(new SlotSpec("w-0", 1)))
        .withBacklogCapacity(jobs)
        .withJobTimeoutMs(0);
    Pool pool = Pool.create(settings);
    pool.start();
    pool.apply(new PoolEvent.WorkerCreated("w-0", 1, 0));
    pool.apply(new PoolEvent.Submit("-running", PAYLOAD, null, REPLY_TO, 0, 0));
    long before = usedAfterGc(memory);
    long counted = 0;
    for (int i = 0; i < jobs; i++) {
      Requests.Submit submit = RequestDecoder.submit(raw ? bytes.copy()
          : new io.vertx.core.json.JsonObject(bytes), 64);
      counted = submit.bytes();
      pool.apply(new PoolEvent.Submit(null, submit.payload(), null, REPLY_TO, 0, submit.bytes(),
          0));
    }
    long after = usedAfterGc(memory);
    if (pool.backlogLength() != jobs) {
      throw new IllegalStateException("backlog " + pool.backlogLength());
    }
    return new long[] {(after - before) / jobs, counted};
  }
}
