package dev.shepherd.bench;

import dev.shepherd.core.Effect;
import dev.shepherd.core.JobSettings;
import dev.shepherd.core.Pool;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.SlotSpec;
import dev.shepherd.core.Timer;
import dev.shepherd.core.Transition;
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
 * The core's cost per job with {@code waiting} jobs held back for a due time (J3, J4 in
 * docs/rules.md): one operation is one millisecond of simulated time in which the running job
 * completes, the due timer fires and releases the one job due now, which is dispatched, and one new
 * job is submitted with a delay of {@code waiting} ms, so exactly {@code waiting} jobs wait
 * throughout. {@code waiting} 0 is the control: the same cycle with undelayed submits and no timer.
 * {@code rules} is NONE (section 10 off but for the delays) or DEFAULT (recent outcomes remembered,
 * dead letters kept).
 *
 * <p>The waiting jobs sit in a binary heap by due time, so adding and releasing one cost O(log
 * n): what 100,000 waiting jobs add over 1,000 is about 7 more comparisons per heap operation.
 *
 * <pre>
 * mvn -B -o -q -DskipTests package
 * java -cp target/shepherd.jar org.openjdk.jmh.Main RetryBench -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class RetryBench {

  @Param({"0", "1000", "100000"})
  public int waiting;

  @Param({"NONE", "DEFAULT"})
  public String rules;

  private static final Object PAYLOAD = "payload";
  private static final Object REPLY_TO = "reply";
  private static final Object RESULT = "result";

  private Pool pool;
  private long now;
  private long running;
  private long armed = -1;

  @Setup(Level.Trial)
  public void setUp() {
    JobSettings jobs = ("NONE".equals(rules) ? JobSettings.NONE : JobSettings.DEFAULT)
        .withMaxDelayMs(Long.MAX_VALUE / 4);
    PoolSettings settings = PoolSettings.defaults("bench", 1)
        .withSlots(List.of(new SlotSpec("w-0", 1)))
        .withBacklogCapacity(waiting + 1_000)
        .withJobTimeoutMs(0)
        .withJobs(jobs);
    pool = Pool.create(settings);
    pool.start();
    pool.apply(new PoolEvent.WorkerCreated("w-0", 1, 0));
    track(pool.apply(new PoolEvent.Submit(null, PAYLOAD, null, REPLY_TO, 0, 0)));
    for (int i = 1; i <= waiting; i++) {
      now = i;
      submit();
    }
  }

  private Transition submit() {
    Transition t = pool.apply(new PoolEvent.Submit(null, PAYLOAD, null, REPLY_TO, 0, 0, waiting,
        null, now));
    track(t);
    return t;
  }

  /** Cost per job, ns/op. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public void cycle(Blackhole blackhole) {
    now++;
    Transition completed = pool.apply(new PoolEvent.Completed("w-0", running, RESULT, null, now));
    track(completed);
    blackhole.consume(completed);
    if (armed == now) {
      armed = -1;
      Transition fired = pool.apply(new PoolEvent.TimerFired(new Timer.Due(now), now));
      track(fired);
      blackhole.consume(fired);
    }
    blackhole.consume(submit());
  }

  private void track(Transition transition) {
    List<Effect> effects = transition.effects();
    for (int i = 0; i < effects.size(); i++) {
      Effect effect = effects.get(i);
      if (effect instanceof Effect.Assign assign) {
        running = assign.assignment();
      } else if (effect instanceof Effect.StartTimer start
          && start.timer() instanceof Timer.Due) {
        armed = start.at();
      }
    }
  }
}
