package dev.shepherd.bench;

import dev.shepherd.core.Effect;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.core.Transition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The core's cost per job (P7 in docs/rules.md): one submit → dispatch → complete cycle on one
 * thread, against a pool whose slots are all busy and whose backlog is pre-filled.
 *
 * <p>One operation picks a key (uniformly among the bound keys) or, unkeyed, the next slot in
 * turn; completes the job running on that key's slot, which frees it and dispatches the slot's
 * next queued job; then submits one new job with that key (or none), which joins the back of
 * the backlog. So every operation is one completion, one dispatch and one admission, and the
 * backlog keeps its length. Parameters: {@code backlog} queued jobs (10 vs 1,000,000), {@code
 * keys} bound keys (0 = unkeyed submits; 10 vs 1,000,000 keyed submits over existing bindings),
 * {@code slots} (4 vs 1,000, capacity 1 each).
 *
 * <p>{@link CoreBenchKeyControl} is the experimental control for the keys dimension: the same
 * random key pick and one {@code HashMap.get} over the same number of keys, nothing else. What a
 * million keys add to {@link #cycle} beyond what they add to the control is the pool's doing.
 *
 * <p>The heap is fixed ({@code -Xms = -Xmx}) so that it does not resize while measuring: the
 * 1,000,000 cases hold about half a gigabyte live. At a backlog of 1,000,000 every queued job
 * outlives several young collections, so their copying shows in the cost per job; run with
 * {@code -jvmArgsAppend "-XX:+UnlockExperimentalVMOptions -XX:+UseEpsilonGC -Xmx18g"} (and short
 * iterations) to see the pool's own cost without any collector.
 *
 * <pre>
 * mvn -B -o -q -DskipTests package
 * java -cp target/shepherd.jar org.openjdk.jmh.Main CoreBench -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class CoreBench {

  @Param({"10", "1000000"})
  public int backlog;

  @Param({"0", "10", "1000000"})
  public int keys;

  @Param({"4", "1000"})
  public int slots;

  private static final Object PAYLOAD = "payload";
  private static final Object REPLY_TO = "reply";
  private static final Object RESULT = "result";

  private Pool pool;
  private String[] slotIds;
  private String[] keyNames;
  /** The live assignment token of each slot (each slot runs exactly one job). */
  private long[] running;
  private int nextSlot;
  private long random = 0x9e3779b97f4a7c15L;

  @Setup(Level.Trial)
  public void setUp() {
    List<SlotSpec> specs = new ArrayList<>(slots);
    slotIds = new String[slots];
    for (int i = 0; i < slots; i++) {
      slotIds[i] = "w-" + i;
      specs.add(new SlotSpec(slotIds[i], 1));
    }
    PoolSettings settings = PoolSettings.defaults("bench", 1)
        .withSlots(specs)
        .withBacklogCapacity(backlog + 1_000)
        .withJobTimeoutMs(0);
    pool = Pool.create(settings);
    pool.start();
    running = new long[slots];
    for (int i = 0; i < slots; i++) {
      pool.apply(new PoolEvent.WorkerCreated(slotIds[i], 1, 0));
    }
    keyNames = new String[keys];
    for (int k = 0; k < keys; k++) {
      keyNames[k] = "key-" + k;
      pool.apply(new PoolEvent.Rebalance(keyNames[k], slotIds[slotOf(k)], 0));
    }
    // Fill every slot, then queue the backlog; keyed jobs spread over the bound keys.
    int fill = busySlots() + backlog;
    for (int j = 0; j < fill; j++) {
      String key = keys == 0 ? null : keyNames[j % keys];
      track(pool.apply(new PoolEvent.Submit(null, PAYLOAD, key, REPLY_TO, 0, 0)));
    }
    if (pool.backlogLength() != backlog) {
      throw new IllegalStateException("backlog " + pool.backlogLength() + ", wanted " + backlog);
    }
  }

  /** With fewer keys than slots only the slots that keys are bound to ever get work. */
  private int busySlots() {
    return keys == 0 ? slots : Math.min(keys, slots);
  }

  private int slotOf(int key) {
    return key % slots;
  }

  /** Cost per job, ns/op. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public void cycle(Blackhole blackhole) {
    oneCycle(blackhole);
  }

  /** The same cycle as a rate, ops/s (one op = one job through submit, dispatch, complete). */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public void cycleRate(Blackhole blackhole) {
    oneCycle(blackhole);
  }

  private void oneCycle(Blackhole blackhole) {
    int slot;
    String key;
    if (keys == 0) {
      slot = nextSlot;
      nextSlot = nextSlot + 1 == slots ? 0 : nextSlot + 1;
      key = null;
    } else {
      random ^= random << 13;
      random ^= random >>> 7;
      random ^= random << 17;
      int k = (int) ((random >>> 1) % keys);
      slot = slotOf(k);
      key = keyNames[k];
    }
    Transition completed =
        pool.apply(new PoolEvent.Completed(slotIds[slot], running[slot], RESULT, null, 0));
    track(completed);
    Transition submitted = pool.apply(new PoolEvent.Submit(null, PAYLOAD, key, REPLY_TO, 0, 0));
    track(submitted);
    blackhole.consume(completed);
    blackhole.consume(submitted);
  }

  private void track(Transition transition) {
    List<Effect> effects = transition.effects();
    for (int i = 0; i < effects.size(); i++) {
      if (effects.get(i) instanceof Effect.Assign assign) {
        running[index(assign.worker())] = assign.assignment();
      }
    }
  }

  private static int index(String worker) {
    return Integer.parseInt(worker, 2, worker.length(), 10);
  }
}
