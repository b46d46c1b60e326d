package dev.shepherd.bench;

import dev.shepherd.core.Effect;
import dev.shepherd.core.FlowSettings;
import dev.shepherd.core.GroupDefaults;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.core.Transition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The core's cost per job with flow control (section 11, F1-F3 in docs/rules.md): one submit →
 * fair dispatch → complete cycle on one thread, against a pool whose slots are all busy and whose
 * backlog holds {@code backlog} jobs spread over {@code groups} groups of weights 1 to 3, at
 * random priorities.
 *
 * <p>One operation completes the job on the next slot in turn, which dispatches that slot's next
 * job by the groups' weighted shares, then submits one new job to a random group at a random
 * priority; the backlog keeps its length. {@code capped} gives every group a concurrency of 1
 * (so most groups are blocked at any time and their queues park and come back).
 *
 * <pre>
 * mvn -B -o -q -DskipTests package
 * java -cp target/shepherd.jar org.openjdk.jmh.Main FlowBench -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class FlowBench {

  @Param({"10", "1000", "100000"})
  public int groups;

  @Param({"1000000"})
  public int backlog;

  @Param({"16"})
  public int slots;

  @Param({"false", "true"})
  public boolean capped;

  private static final Object PAYLOAD = "payload";
  private static final Object REPLY_TO = "reply";
  private static final Object RESULT = "result";

  private Pool pool;
  private String[] slotIds;
  private String[] groupNames;
  private long[] running;
  private final Map<String, Integer> slotIndex = new HashMap<>();
  private int nextSlot;
  private long random = 0x9e3779b97f4a7c15L;

  @Setup(Level.Trial)
  public void setUp() {
    List<SlotSpec> specs = new ArrayList<>(slots);
    slotIds = new String[slots];
    for (int i = 0; i < slots; i++) {
      slotIds[i] = "w-" + i;
      slotIndex.put(slotIds[i], i);
      specs.add(new SlotSpec(slotIds[i], 1));
    }
    groupNames = new String[groups];
    Map<String, GroupSettings> overrides = new HashMap<>();
    for (int g = 0; g < groups; g++) {
      groupNames[g] = "tenant-" + g;
      overrides.put(groupNames[g], new GroupSettings(null, null, 1 + g % 3, null, null));
    }
    FlowSettings flow = FlowSettings.NONE.withGroups(overrides)
        .withDefaults(new GroupDefaults(capped ? 1 : 0, 0, 1, null));
    PoolSettings settings = PoolSettings.defaults("bench", 1).withSlots(specs)
        .withBacklogCapacity(backlog + slots + 1_000).withJobTimeoutMs(0).withFlow(flow);
    pool = Pool.create(settings);
    pool.start();
    running = new long[slots];
    for (int i = 0; i < slots; i++) {
      pool.apply(new PoolEvent.WorkerCreated(slotIds[i], 1, 0));
    }
    while (pool.backlogLength() < backlog) {
      submit();
    }
  }

  private long next() {
    random ^= random << 13;
    random ^= random >>> 7;
    random ^= random << 17;
    return random;
  }

  private Transition submit() {
    long r = next();
    String group = groupNames[(int) Long.remainderUnsigned(r, groups)];
    int priority = (int) Long.remainderUnsigned(r >>> 32, 10);
    Transition t = pool.apply(new PoolEvent.Submit(null, PAYLOAD, null, REPLY_TO, 0, 0, 0, null,
        group, priority, 0));
    track(t);
    return t;
  }

  private void track(Transition t) {
    for (Effect effect : t.effects()) {
      if (effect instanceof Effect.Assign a) {
        running[slotIndex.get(a.worker())] = a.assignment();
      }
    }
  }

  /** Cost per job, ns/op: a completion, a fair dispatch and an admission. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public void cycle(Blackhole bh) {
    // With every group capped a slot may stay idle after its completion (C3 with groups); the
    // next slot in turn that runs something is completed instead.
    int slot = nextSlot;
    for (int tries = 0; running[slot] == 0 && tries < slots; tries++) {
      slot = (slot + 1) % slots;
    }
    nextSlot = (slot + 1) % slots;
    long token = running[slot];
    running[slot] = 0;
    Transition done = pool.apply(new PoolEvent.Completed(slotIds[slot], token, RESULT, null, 0));
    track(done);
    bh.consume(done);
    bh.consume(submit());
  }
}
