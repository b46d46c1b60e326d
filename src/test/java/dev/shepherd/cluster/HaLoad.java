package dev.shepherd.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A steady submitter of a highly available pool's tests, on a clustered Vert.x of the test's JVM
 * (a member of the cluster that survives): it submits a job every {@code everyMs} with a {@code
 * replyTo} address of its own (A4) and records what it saw: the jobs accepted, every terminal
 * answer by job, and when each answer arrived.
 */
final class HaLoad {
  private final Vertx vertx;
  private final String prefix;
  private final String replyTo;
  private final Set<String> accepted = ConcurrentHashMap.newKeySet();
  private final Map<String, JsonObject> rejected = new ConcurrentHashMap<>();
  private final Map<String, List<JsonObject>> answers = new ConcurrentHashMap<>();
  private final List<long[]> answerTimes = new CopyOnWriteArrayList<>();
  private final List<Long> acceptTimes = new CopyOnWriteArrayList<>();
  private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();
  private final Map<String, Long> submittedAt = new ConcurrentHashMap<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong unanswered = new AtomicLong();
  private final AtomicLong timedOut = new AtomicLong();
  private long timer = -1;

  /** One answer and when it arrived (epoch ms). */
  record Arrival(long at, JsonObject outcome) {
    /** The node whose worker produced it ({@link NodeEchoWorker}), or null. */
    String node() {
      JsonObject result = outcome.getJsonObject("result");
      return result == null ? null : result.getString("node");
    }
  }

  HaLoad(Vertx vertx, String pool, String name) {
    this.vertx = vertx;
    this.prefix = "shepherd." + pool;
    this.replyTo = "ha-test." + name + ".answers";
    vertx.eventBus().<JsonObject>consumer(replyTo, m -> {
      JsonObject outcome = m.body();
      answers.computeIfAbsent(outcome.getString("job"), j -> new CopyOnWriteArrayList<>())
          .add(outcome);
      answerTimes.add(new long[] {System.currentTimeMillis()});
      arrivals.add(new Arrival(System.currentTimeMillis(), outcome));
    }).completion().toCompletionStage().toCompletableFuture().join();
  }

  /** Starts submitting a job every {@code everyMs}; {@code payload} makes each job's payload. */
  void start(long everyMs, java.util.function.LongFunction<JsonObject> body) {
    timer = vertx.setPeriodic(everyMs, id -> submit(body.apply(sent.incrementAndGet())));
  }

  void stop() {
    vertx.cancelTimer(timer);
  }

  /** Submits one job (its body names job, payload and key) with this load's replyTo. */
  void submit(JsonObject body) {
    String job = body.getString("job");
    submittedAt.put(job, System.currentTimeMillis());
    vertx.eventBus().<JsonObject>request(prefix + ".submit", body.copy().put("replyTo", replyTo),
            new DeliveryOptions().setSendTimeout(3_000))
        .onComplete(ar -> {
          if (ar.failed()) {
            unanswered.incrementAndGet();
            if (ar.cause() instanceof io.vertx.core.eventbus.ReplyException e
                && e.failureType() == io.vertx.core.eventbus.ReplyFailure.TIMEOUT) {
              timedOut.incrementAndGet();
            }
          } else if ("accepted".equals(ar.result().body().getString("type"))) {
            accepted.add(job);
            acceptTimes.add(System.currentTimeMillis());
          } else {
            rejected.put(job, ar.result().body());
          }
        });
  }

  Set<String> accepted() {
    return accepted;
  }

  Map<String, JsonObject> rejected() {
    return rejected;
  }

  Map<String, List<JsonObject>> answers() {
    return answers;
  }

  List<Arrival> arrivals() {
    return arrivals;
  }

  /** Submits whose admission never came (the request went to a node that died). */
  long unanswered() {
    return unanswered.get();
  }

  /** Of {@link #unanswered}, the submits that had no reply at all within their timeout. */
  long timedOut() {
    return timedOut.get();
  }

  long sent() {
    return sent.get();
  }

  /** The first time an answer arrived at or after {@code since} (epoch ms), or -1. */
  long firstAnswerAfter(long since) {
    return answerTimes.stream().mapToLong(t -> t[0]).filter(t -> t >= since).min().orElse(-1);
  }

  /** The first time a submit was accepted at or after {@code since} (epoch ms), or -1. */
  long firstAcceptedAfter(long since) {
    return acceptTimes.stream().mapToLong(Long::longValue).filter(t -> t >= since).min()
        .orElse(-1);
  }

  /**
   * When the first answer arrived to a job submitted at or after {@code since} (epoch ms): the
   * first job the pool served from then on, or -1.
   */
  long firstAnswerToJobSubmittedAfter(long since) {
    return arrivals.stream()
        .filter(a -> submittedAt.getOrDefault(a.outcome().getString("job"), -1L) >= since)
        .mapToLong(Arrival::at).min().orElse(-1);
  }

  /**
   * Collects by lookup (J6 in docs/rules.md: {@code .job}) the outcome of each accepted job with
   * no answer yet that the pool has answered, as a submitter does whose member was cut off from
   * the cluster while the answer went out; each is recorded as an answer. Returns how many.
   */
  int collectAnswered() {
    int collected = 0;
    for (String job : waiting()) {
      try {
        JsonObject view = vertx.eventBus().<JsonObject>request(prefix + ".job",
                new JsonObject().put("job", job), new DeliveryOptions().setSendTimeout(5_000))
            .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).body();
        JsonObject outcome = view.getJsonObject("outcome");
        if ("ANSWERED".equals(view.getString("state")) && outcome != null) {
          answers.computeIfAbsent(job, j -> new CopyOnWriteArrayList<>()).add(outcome);
          collected++;
        }
      } catch (Exception e) {
        // Not held (yet), or no answer now: the next round asks again.
      }
    }
    return collected;
  }

  /** Accepted jobs with no answer yet. */
  Set<String> waiting() {
    Set<String> waiting = ConcurrentHashMap.newKeySet();
    accepted.forEach(job -> {
      if (!answers.containsKey(job)) {
        waiting.add(job);
      }
    });
    return waiting;
  }
}
