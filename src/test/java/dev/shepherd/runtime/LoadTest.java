package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.join;
import static dev.shepherd.runtime.PoolFixture.slots;
import static dev.shepherd.runtime.PoolFixture.status;
import static dev.shepherd.runtime.PoolFixture.supervision;
import static dev.shepherd.runtime.PoolFixture.worker;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Outcome;
import dev.shepherd.runtime.access.LocalPools;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.OutcomeJson;
import dev.shepherd.testworkers.ChaosWorker;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 20,000 jobs from many concurrent submitters of three kinds (in-JVM {@link PoolClient}, bus
 * request/reply, bus {@code replyTo}) against workers that crash at random under RETRY: every job
 * is answered exactly once, none is lost, and the counters add up. No timing assertions.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class LoadTest {
  private static final String POOL = "load";
  private static final int WINDOW = 64;
  private static final int CRASH_PERCENT = 1;
  private static final long REQUEST_TIMEOUT_MS = 120_000;

  /** Sends its jobs, at most {@link #WINDOW} unanswered at a time, and records each answer. */
  abstract static class Submitter extends VerticleBase {
    final String name;
    final int jobs;
    final Map<String, String> answers;
    final Promise<Void> done = Promise.promise();
    private int sent;
    private int answered;

    Submitter(String name, int jobs, Map<String, String> answers) {
      this.name = name;
      this.jobs = jobs;
      this.answers = answers;
    }

    @Override
    public Future<?> start() {
      return prepare().onSuccess(v -> {
        for (int i = 0; i < WINDOW; i++) {
          sendNext();
        }
      });
    }

    Future<Void> prepare() {
      return Future.succeededFuture();
    }

    private void sendNext() {
      if (sent == jobs) {
        return;
      }
      String id = name + "-" + sent++;
      JsonObject payload = new JsonObject().put("crashPercent", CRASH_PERCENT);
      send(id, payload).onComplete(ar -> {
        record(id, ar.succeeded() ? ar.result() : "error: " + ar.cause());
        if (++answered == jobs) {
          done.complete();
        } else {
          sendNext();
        }
      });
    }

    /** An answer for {@code id}; a second one for the same job is kept, to be seen. */
    void record(String id, String answer) {
      answers.merge(id, answer, (first, second) -> first + " AND " + second);
    }

    /** Submits one job; the future is the terminal outcome's type (checked to be for {@code id}). */
    abstract Future<String> send(String id, JsonObject payload);

    static String typeFor(String id, JsonObject outcome) {
      return id.equals(outcome.getString("job")) ? outcome.getString("type")
          : "answer for another job: " + outcome.encode();
    }
  }

  static final class ClientSubmitter extends Submitter {
    ClientSubmitter(String name, int jobs, Map<String, String> answers) {
      super(name, jobs, answers);
    }

    @Override
    Future<String> send(String id, JsonObject payload) {
      return PoolClient.create(vertx, POOL).outcome(JobRequest.of(payload).withJob(id))
          .map(o -> typeFor(id, OutcomeJson.encode(o)));
    }
  }

  static final class BusSubmitter extends Submitter {
    BusSubmitter(String name, int jobs, Map<String, String> answers) {
      super(name, jobs, answers);
    }

    @Override
    Future<String> send(String id, JsonObject payload) {
      return vertx.eventBus().<JsonObject>request(Addresses.forPool(POOL).submit(),
              new JsonObject().put("job", id).put("payload", payload),
              new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS))
          .map(reply -> typeFor(id, reply.body()));
    }
  }

  /** Submits with {@code replyTo}: the reply is the admission, the outcome comes to its inbox. */
  static final class ReplyToSubmitter extends Submitter {
    private final Map<String, Promise<String>> pending = new HashMap<>();

    ReplyToSubmitter(String name, int jobs, Map<String, String> answers) {
      super(name, jobs, answers);
    }

    private String inbox() {
      return "test.load." + name;
    }

    @Override
    Future<Void> prepare() {
      return vertx.eventBus().<JsonObject>consumer(inbox(), message -> {
        String id = message.body().getString("job");
        Promise<String> waiting = pending.remove(id);
        if (waiting == null) {
          record(id, "unexpected " + message.body().encode());
        } else {
          waiting.complete(typeFor(id, message.body()));
        }
      }).completion();
    }

    @Override
    Future<String> send(String id, JsonObject payload) {
      Promise<String> terminal = Promise.promise();
      pending.put(id, terminal);
      vertx.eventBus().<JsonObject>request(Addresses.forPool(POOL).submit(),
              new JsonObject().put("job", id).put("payload", payload).put("replyTo", inbox()),
              new DeliveryOptions().setSendTimeout(REQUEST_TIMEOUT_MS))
          .onComplete(ar -> {
            if (ar.failed() || !"accepted".equals(ar.result().body().getString("type"))) {
              pending.remove(id);
              terminal.tryComplete(ar.failed() ? "error: " + ar.cause()
                  : "admission " + ar.result().body().encode());
            }
          });
      return terminal.future();
    }
  }

  @Test
  void twenty_thousand_jobs_with_random_crashes_are_each_answered_exactly_once(Vertx vertx)
      throws Exception {
    // The seed's rules: every crashed job is retried at once until it completes (maxAttempts),
    // none is poisoned, and slots are replaced at once.
    JsonObject config = PoolFixture.seedRules(demoPool(POOL, 6))
        .put("interruption", "RETRY")
        .put("maxAttempts", 50)
        .put("backlogCapacity", 25_000);
    worker(config).put("class", ChaosWorker.class.getName()).put("maxConcurrency", 4);
    supervision(config).put("maxRestarts", 1_000_000).put("restartWindowMs", 1_000);
    deployReady(vertx, config);
    Map<String, AtomicInteger> terminalAnswers = new ConcurrentHashMap<>();
    LocalPools.find(vertx, POOL).observe(new PoolObserver() {
      @Override
      public void onOutcome(Outcome outcome) {
        if (outcome.terminal()) {
          terminalAnswers.computeIfAbsent(outcome.job(), k -> new AtomicInteger()).incrementAndGet();
        }
      }
    });
    Map<String, String> answers = new ConcurrentHashMap<>();
    List<Submitter> submitters = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      submitters.add(new ClientSubmitter("client" + i, 2_500, answers));
    }
    for (int i = 0; i < 3; i++) {
      submitters.add(new BusSubmitter("bus" + i, 2_000, answers));
    }
    for (int i = 0; i < 2; i++) {
      submitters.add(new ReplyToSubmitter("replyto" + i, 2_000, answers));
    }
    int total = submitters.stream().mapToInt(s -> s.jobs).sum();

    for (Submitter submitter : submitters) {
      join(vertx.deployVerticle(submitter));
    }
    Future.all(submitters.stream().map(s -> s.done.future()).collect(Collectors.toList()))
        .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);

    assertThat(total).isEqualTo(20_000);
    assertThat(answers).hasSize(total);
    Map<String, Long> byAnswer = answers.values().stream()
        .collect(Collectors.groupingBy(a -> a, Collectors.counting()));
    assertThat(byAnswer).as("every job completed, once").isEqualTo(Map.of("completed", (long) total));
    assertThat(terminalAnswers).hasSize(total);
    assertThat(terminalAnswers.values()).allSatisfy(n -> assertThat(n).hasValue(1));
    JsonObject status = status(vertx, POOL);
    assertThat(counter(status, "accepted")).isEqualTo(total);
    assertThat(counter(status, "rejected")).isZero();
    assertThat(counter(status, "completed")).isEqualTo(total);
    assertThat(counter(status, "failed") + counter(status, "interrupted")
        + counter(status, "cancelled")).isZero();
    assertThat(counter(status, "restarts")).as("the chaos did crash workers").isPositive();
    assertThat(counter(status, "retried")).isGreaterThanOrEqualTo(counter(status, "restarts"));
    assertThat(status.getJsonObject("backlog").getInteger("length")).isZero();
    assertThat(slots(status)).allSatisfy(slot ->
        assertThat(((JsonObject) slot).getJsonArray("assignments")).isEmpty());
  }
}
