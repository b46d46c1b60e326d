package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.shepherd.LogCapture;
import dev.shepherd.core.DurableImage;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.HostSettings;
import dev.shepherd.core.PoolSettings;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.OnException;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The terms a node leads (A1-A3 in docs/rules.md), on ports that need no Vert.x: a term's
 * coordinator is opened, led, started and recovered before it serves; a new term steps the old
 * one down first; a term that cannot open or serve is given back; a step-down has the site let
 * go of the coordinator and gives the term back only once it did.
 */
class TermRunnerTest {
  private static final DurableLog.Recovered NOTHING =
      new DurableLog.Recovered(DurableImage.empty(0), List.of());

  /** A pool of hosts alone (no local slot), durable. */
  private static PoolConfig config() {
    PoolSettings settings = PoolSettings.defaults("terms", 1)
        .withHosts(new HostSettings(true, 30_000)).withSlots(List.of()).withDurable(true);
    return new PoolConfig(settings, null, ThreadingModel.EVENT_LOOP, new JsonObject(), "shepherd",
        PoolConfig.DEFAULT_MAX_PAYLOAD_DEPTH, PoolConfig.DEFAULT_HEARTBEAT_TIMEOUT_MS, true,
        OnException.FAIL_JOB, () -> {
          throw new IllegalStateException("no local slots");
        });
  }

  private static final RuntimeClock CLOCK = new RuntimeClock() {
    @Override
    public long monotonicMs() {
      return 1_000;
    }

    @Override
    public long wallMs() {
      return 1_800_000_000_000L;
    }

    @Override
    public long wallOffsetMs() {
      return 1_800_000_000_000L - 1_000;
    }
  };

  /** Timers that never fire: nothing here waits for one. */
  private static final Scheduler NEVER = new Scheduler() {
    @Override
    public long at(long deadline, Runnable task) {
      return 0;
    }

    @Override
    public long after(long delayMs, Runnable task) {
      return 0;
    }

    @Override
    public long every(long periodMs, Runnable task) {
      return 0;
    }

    @Override
    public boolean cancel(long id) {
      return false;
    }
  };

  /** A leadership that records the terms given back; writes never complete. */
  private static final class Recording implements Leadership {
    final List<Long> resigned = new ArrayList<>();

    @Override
    public Future<Void> start(Context context, PoolConfig config, Candidate candidate) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> stop() {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base base) {
      return io.vertx.core.Promise.<Void>promise().future();
    }

    @Override
    public void resign(long term) {
      resigned.add(term);
    }

    @Override
    public HaStatus status(long term) {
      return new HaStatus(true, true, "here", term);
    }
  }

  /** A site that records what it is asked, and fails when told to. */
  private static final class Site implements TermRunner.Site {
    final List<String> calls = new ArrayList<>();
    final List<Runnable> closing = new ArrayList<>();
    boolean openFails;
    Throwable serveFails;
    /** When set, serving completes only when the test runs {@link #serving}. */
    boolean serveLater;
    Consumer<Throwable> serving;

    @Override
    public Coordinator open(PoolConfig termConfig) {
      calls.add("open " + termConfig.settings().term());
      if (openFails) {
        throw new IllegalStateException("a pool of that name runs here already");
      }
      return new Coordinator(null, null, termConfig, new PoolPorts(CLOCK, NEVER, Runnable::run,
          (address, body) -> { }, () -> {
            throw new IllegalStateException("no local slots");
          }));
    }

    @Override
    public void serve(Coordinator coordinator, Consumer<Throwable> done) {
      calls.add("serve " + coordinator.term() + " " + coordinator.state());
      if (serveLater) {
        serving = done;
      } else {
        done.accept(serveFails);
      }
    }

    @Override
    public void discard(Coordinator coordinator) {
      calls.add("discard " + coordinator.term());
    }

    @Override
    public void standReady() {
      calls.add("stand ready");
    }

    @Override
    public void standDown() {
      calls.add("stand down");
    }

    @Override
    public void close(Coordinator coordinator, Runnable done) {
      calls.add("close " + coordinator.term());
      closing.add(done);
    }
  }

  private final Recording leadership = new Recording();
  private final Site site = new Site();
  private final TermRunner terms = new TermRunner(config(), leadership, site);

  @Test
  void A3_a_term_is_led_started_and_recovered_before_its_coordinator_serves() {
    terms.lead(1, NOTHING, 1_000);

    assertThat(site.calls).containsExactly("open 1", "serve 1 RUNNING");
    assertThat(terms.coordinator().term()).isEqualTo(1);
    assertThat(leadership.resigned).isEmpty();
  }

  @Test
  void A3_a_standby_claiming_after_its_leader_left_stands_ready_and_then_serves() {
    terms.claiming();
    terms.lead(1, NOTHING, 1_000);

    assertThat(site.calls).containsExactly("stand ready", "open 1", "serve 1 RUNNING");
  }

  @Test
  void A3_a_standby_that_another_node_beat_stands_down_and_a_leader_is_not_told_either() {
    terms.claiming();
    terms.anotherLeads();
    terms.lead(1, NOTHING, 1_000);
    terms.claiming();
    terms.anotherLeads();

    assertThat(site.calls).containsExactly("stand ready", "stand down", "open 1",
        "serve 1 RUNNING");
  }

  @Test
  void A2_a_new_term_steps_the_old_one_down_first() {
    terms.lead(1, NOTHING, 1_000);
    Coordinator first = terms.coordinator();
    terms.lead(2, NOTHING, 1_000);
    site.closing.forEach(Runnable::run);

    assertThat(site.calls).containsExactly("open 1", "serve 1 RUNNING", "close 1", "open 2",
        "serve 2 RUNNING");
    assertThat(terms.coordinator()).isNotSameAs(first);
    assertThat(terms.coordinator().term()).isEqualTo(2);
    assertThat(leadership.resigned).containsExactly(1L);
  }

  @Test
  void A1_a_term_this_node_cannot_open_is_given_back() {
    site.openFails = true;
    terms.lead(1, NOTHING, 1_000);

    assertThat(site.calls).containsExactly("open 1");
    assertThat(terms.coordinator()).isNull();
    assertThat(leadership.resigned).containsExactly(1L);
  }

  @Test
  void A1_a_term_whose_coordinator_cannot_serve_is_discarded_and_given_back() {
    site.serveFails = new IllegalStateException("the pool's addresses are taken");
    terms.lead(1, NOTHING, 1_000);

    assertThat(site.calls).containsExactly("open 1", "serve 1 RUNNING", "discard 1");
    assertThat(terms.coordinator()).isNull();
    assertThat(leadership.resigned).containsExactly(1L);
  }

  @Test
  void A2_a_step_down_gives_the_term_back_once_the_site_let_go_of_its_coordinator() {
    terms.lead(3, NOTHING, 1_000);
    Future<Void> down = terms.stepDownAndWait("the majority is lost", false);

    assertThat(terms.coordinator()).isNull();
    assertThat(site.calls).endsWith("close 3");
    assertThat(leadership.resigned).isEmpty();
    assertThat(down.isComplete()).isFalse();

    site.closing.forEach(Runnable::run);
    assertThat(leadership.resigned).containsExactly(3L);
    assertThat(down.succeeded()).isTrue();
    assertThat(terms.stepDownAndWait("again", false).succeeded())
        .as("standing by, there is nothing to step down from").isTrue();
  }

  @Test
  void A2_a_term_stepped_down_from_while_it_registers_its_addresses_is_not_discarded_again() {
    site.serveLater = true;
    terms.lead(4, NOTHING, 1_000);
    Future<Void> down = terms.stepDownAndWait("this node stops", true);
    site.closing.forEach(Runnable::run);

    try (LogCapture log = LogCapture.start()) {
      site.serving.accept(new IllegalStateException(
          "Consumer unregistered before registration completed"));

      assertThat(log.events()).noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.WARN));
    }
    assertThat(site.calls).containsExactly("open 4", "serve 4 RUNNING", "close 4");
    assertThat(leadership.resigned).containsExactly(4L);
    assertThat(down.succeeded()).isTrue();
  }
}
