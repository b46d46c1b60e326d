package dev.shepherd.bench;

import java.util.HashMap;
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

/**
 * The experimental control for {@link CoreBench}'s keys dimension: the same random choice among
 * {@code keys} key strings and one {@code HashMap.get}, nothing else. Each pick depends on the
 * previous lookup's result, so the processor cannot overlap the cache misses of consecutive
 * lookups (in the pool's cycle, hundreds of instructions separate them, so it cannot either):
 * this is the latency floor of one binding lookup in a table of that size on this machine.
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CoreBenchKeyControl {
  @Param({"10", "1000000"})
  public int keys;

  private String[] names;
  private Map<String, String> bindings;
  private long random = 0x9e3779b97f4a7c15L;

  @Setup(Level.Trial)
  public void setUp() {
    names = new String[keys];
    bindings = new HashMap<>();
    for (int k = 0; k < keys; k++) {
      names[k] = "key-" + k;
      bindings.put(names[k], "w-" + k % 4);
    }
  }

  @Benchmark
  public Object lookup() {
    random ^= random << 13;
    random ^= random >>> 7;
    random ^= random << 17;
    String worker = bindings.get(names[(int) ((random >>> 1) % keys)]);
    random += worker.length();
    return worker;
  }
}
