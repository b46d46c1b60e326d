package dev.shepherd.runtime.access;

import dev.shepherd.core.Outcome;
import dev.shepherd.core.RejectionReason;
import dev.shepherd.runtime.PoolClient;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.wire.Addresses;
import dev.shepherd.runtime.wire.BusWire;
import dev.shepherd.runtime.wire.OutcomeJson;
import dev.shepherd.runtime.wire.ProgressJson;
import dev.shepherd.runtime.wire.RequestDecoder;
import dev.shepherd.runtime.wire.Requests;
import dev.shepherd.runtime.wire.SubmitBody;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A submitter's own reply address (a {@link PoolClient}'s, or a node's for the pools it serves
 * over HTTP through a {@link BusPoolHandle}) ({@code __shepherd.client.<uuid>}) and the submits
 * waiting there for their terminal outcome, matched by job id. Each submit carries the address as
 * its {@code replyTo}: the reply to the request is only the admission, and the outcome is sent to
 * the address by whichever coordinator holds the job by then, so a future outlives a failover of
 * the coordinator that admitted it (rule A4 in docs/rules.md).
 *
 * <p>The address has one consumer, registered on a context of its own at the first submit (so it
 * does not go away with the verticle that happened to submit first) and unregistered by {@link
 * #close()}. A progress message ({@code {"type": "progress", "job", …}}, T2 in docs/rules.md) goes
 * to the waiting submit's progress handler, if it gave one, on its context and in the order the
 * reports arrived, and never after the outcome: the answer removes the entry, so a report that
 * comes after it finds nobody. A message there that is not a terminal outcome or a progress
 * report, or one for a job nobody waits for (answered already, given up by timeout, or never this
 * client's), is counted and ignored with one debug line. Every submit waits for its timeout; then
 * the client asks the pool once where the job is (J6, {@code .job}), and an outcome the pool sent
 * that never arrived (the submitter's member was cut off from the cluster meanwhile, say) answers
 * it; otherwise it fails with a {@link ReplyException} of type {@code TIMEOUT} and its id is
 * forgotten. Deadlines are checked by one periodic sweep, every eighth of the timeout (10 ms to
 * 1 s), not by a timer per job: a timer set on the submitter's context and cancelled from the
 * address's would cost a wake-up of another thread per job. Callbacks run on the submitter's
 * context.
 */
public final class ReplyAddress {
  /** The prefix of every client's reply address. */
  public static final String PREFIX = "__shepherd.client.";
  /**
   * How long a submit waits for its admission before it is sent again: admissions take
   * milliseconds (a durable write included), so this much silence means the request was lost.
   */
  static final long ADMISSION_TIMEOUT_MS = 5_000;
  /** How many times the address's consumer is registered before the submits waiting fail. */
  static final int REGISTRATION_ATTEMPTS = 20;
  /** How long after a failed registration of the consumer it is tried again. */
  static final long REGISTRATION_RETRY_MS = 250;
  /** How long the lookup at a submit's timeout waits for the pool's answer. */
  static final long LOOKUP_AT_TIMEOUT_MS = 1_000;

  private static final Logger LOG = LoggerFactory.getLogger(ReplyAddress.class);

  private final Vertx vertx;
  private final String pool;
  private final long timeoutMs;
  private final long admissionTimeoutMs;
  private final String address;
  private final String idPrefix;
  private final AtomicLong generated = new AtomicLong();
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
  private final AtomicLong unknown = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private Future<Void> ready;
  private MessageConsumer<Object> consumer;
  private long sweeper = -1;
  private volatile boolean closed;

  /** A submit waiting for its outcome; whoever removes its map entry answers it. */
  private static final class Waiting {
    /** The pool's addresses, where the lookup at the deadline goes. */
    final Addresses addresses;
    final Handler<Outcome> onAnswer;
    final Handler<Throwable> onFailure;
    /** Hears the job's progress reports; null: none. */
    final Handler<JsonObject> onProgress;
    final Context caller;
    /**
     * Set on the caller's context as the answer (or failure) is handed over; a progress report
     * queued there after it is not heard.
     */
    volatile boolean answered;
    /** {@link System#nanoTime()} at which the client stops waiting. */
    final long deadline;
    /** The lookup at the deadline is under way (the sweep starts it once). */
    volatile boolean lookingUp;

    Waiting(Addresses addresses, Handler<Outcome> onAnswer, Handler<Throwable> onFailure,
        Handler<JsonObject> onProgress, Context caller, long deadline) {
      this.addresses = addresses;
      this.onAnswer = onAnswer;
      this.onFailure = onFailure;
      this.onProgress = onProgress;
      this.caller = caller;
      this.deadline = deadline;
    }
  }

  /** The reply address of a client of {@code pool} whose submits wait {@code timeoutMs}. */
  public ReplyAddress(Vertx vertx, String pool, long timeoutMs) {
    this(vertx, pool, timeoutMs, ADMISSION_TIMEOUT_MS);
  }

  /** As above, with a submit sent again after {@code admissionTimeoutMs} without admission. */
  ReplyAddress(Vertx vertx, String pool, long timeoutMs, long admissionTimeoutMs) {
    this.vertx = vertx;
    this.pool = pool;
    this.timeoutMs = timeoutMs;
    this.admissionTimeoutMs = admissionTimeoutMs;
    String id = UUID.randomUUID().toString();
    this.address = PREFIX + id;
    this.idPrefix = id + "-";
  }

  public String address() {
    return address;
  }

  /** Outcomes that arrived for a job id this client was not waiting for. */
  public long unknownOutcomes() {
    return unknown.get();
  }

  /** Messages at the address that were not a terminal outcome. */
  public long malformedOutcomes() {
    return malformed.get();
  }

  /** Submits waiting for their outcome now. */
  public int waiting() {
    return waiting.size();
  }

  /**
   * Submits {@code request} to the pool at {@code addresses} with this address as its {@code
   * replyTo}, giving it a job id when it has none (outcomes are matched by id). {@code onAnswer}
   * hears a rejection at once, or the terminal outcome; {@code onFailure} hears the pool's refusal
   * of bad input, a failure of the bus, the timeout, or the client's close. A job id this client
   * already waits for is rejected {@code DUPLICATE_JOB} here, as the pool would. While no
   * coordinator consumes the pool's address (a failover), the submit is sent again for up to
   * {@code leaderWaitMs} ({@link LeaderWait}).
   */
  public void submit(Addresses addresses, Requests.Submit request, long leaderWaitMs,
      Handler<Outcome> onAnswer, Handler<Throwable> onFailure) {
    submit(addresses, request, leaderWaitMs, onAnswer, onFailure, null);
  }

  /**
   * As above; {@code onProgress} (null: none) hears each of the job's progress reports (T2 in
   * docs/rules.md) on the caller's context, in the order they arrive, each before the answer and
   * none after it.
   */
  public void submit(Addresses addresses, Requests.Submit request, long leaderWaitMs,
      Handler<Outcome> onAnswer, Handler<Throwable> onFailure, Handler<JsonObject> onProgress) {
    String job = request.job() != null ? request.job() : idPrefix + generated.incrementAndGet();
    Waiting entry = new Waiting(addresses, onAnswer, onFailure, onProgress,
        Vertx.currentContext(),
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs));
    if (closed) {
      onFailure.handle(closedError(job));
      return;
    }
    if (waiting.putIfAbsent(job, entry) != null) {
      onAnswer.handle(new Outcome.Rejected(job, RejectionReason.DUPLICATE_JOB,
          request.payload(), "job " + job + " is already waiting for its outcome in this client"));
      return;
    }
    if (closed && waiting.remove(job, entry)) {
      onFailure.handle(closedError(job));
      return;
    }
    Object body = SubmitBody.encode(request.withJob(job), address);
    Future<Void> registered = ready();
    long wait = Math.min(leaderWaitMs, timeoutMs);
    if (registered.succeeded()) {
      send(addresses, job, entry, body, wait, false);
    } else {
      registered.onComplete(ar -> {
        if (ar.succeeded()) {
          send(addresses, job, entry, body, wait, false);
        } else if (waiting.remove(job, entry)) {
          fail(entry, ar.cause());
        }
      });
    }
  }

  /**
   * Sends the submit and waits up to {@code admissionTimeoutMs} for its admission. Without
   * one (the coordinator died with the request, or a request went to a node that is dead but not
   * yet removed from the cluster, which never fails fast), it is sent again, with the same job
   * id, until the submit's deadline: a coordinator that did accept the first answers the next
   * {@code DUPLICATE_JOB}, and the outcome is still waited for.
   */
  private void send(Addresses addresses, String job, Waiting entry, Object body,
      long leaderWaitMs, boolean again) {
    if (waiting.get(job) != entry) {
      return;
    }
    LeaderWait.request(vertx, addresses.submit(), body,
            new DeliveryOptions().setSendTimeout(Math.min(timeoutMs, admissionTimeoutMs)),
            leaderWaitMs)
        .onComplete(ar -> {
          if (ar.succeeded()) {
            admitted(job, entry, ar.result(), again);
          } else if (ar.cause() instanceof ReplyException e
              && e.failureType() == ReplyFailure.TIMEOUT) {
            // No admission in time: send again while the submit waits (the sweep fails it at
            // its deadline).
            if (entry.deadline - System.nanoTime() > 0) {
              LOG.debug("pool {}: no admission of job {} within {} ms; sending it again",
                  LogText.quote(pool), LogText.quote(job), admissionTimeoutMs);
              send(addresses, job, entry, body, leaderWaitMs, true);
            }
          } else if (waiting.remove(job, entry)) {
            fail(entry, BusPoolHandle.mapFailure(ar.cause()));
          }
        });
  }

  /**
   * The reply to the submit: {@code accepted} keeps waiting, and so does {@code DUPLICATE_JOB}
   * to a submit sent {@code again} (the first was accepted); anything else answers now.
   */
  private void admitted(String job, Waiting entry, Message<Object> reply, boolean again) {
    Outcome outcome;
    try {
      outcome = OutcomeJson.decode(RequestDecoder.object(reply.body()));
    } catch (RuntimeException e) {
      if (waiting.remove(job, entry)) {
        fail(entry, new IllegalStateException("pool " + pool + " answered a submit with"
            + " something that is not an outcome: " + e.getMessage(), e));
      }
      return;
    }
    if (again && outcome instanceof Outcome.Rejected rejected
        && rejected.reason() == RejectionReason.DUPLICATE_JOB) {
      return;
    }
    if (!(outcome instanceof Outcome.Accepted) && waiting.remove(job, entry)) {
      answer(entry, outcome);
    }
  }

  private void onMessage(Message<Object> message) {
    Object body = message.body();
    if (ProgressJson.isProgress(body)) {
      onProgress((JsonObject) body);
      return;
    }
    Outcome outcome;
    try {
      JsonObject json = RequestDecoder.object(body);
      if (!(json.getValue(BusWire.JOB) instanceof String)) {
        ignore(body, "job: must be a string");
        return;
      }
      outcome = OutcomeJson.decode(json);
    } catch (RuntimeException | StackOverflowError e) {
      ignore(body, e.getMessage());
      return;
    }
    if (outcome instanceof Outcome.Accepted) {
      ignore(body, "an admission, not a terminal outcome");
      return;
    }
    Waiting entry = waiting.remove(outcome.job());
    if (entry == null) {
      unknown.incrementAndGet();
      LOG.debug("pool {}: outcome {} for job {} that this client does not wait for; ignored",
          LogText.quote(pool), OutcomeJson.type(outcome), LogText.quote(outcome.job()));
      return;
    }
    answer(entry, outcome);
  }

  /**
   * A progress report (T2 in docs/rules.md) for a submit still waiting: handed to its progress
   * handler as the in-JVM client hands it (a JSON object as it is, anything else as {@code
   * {"value": …}}). One for a job nobody waits for (answered already) is dropped.
   */
  private void onProgress(JsonObject body) {
    if (!(body.getValue(BusWire.JOB) instanceof String job)) {
      ignore(body, "job: must be a string");
      return;
    }
    Waiting entry = waiting.get(job);
    if (entry == null || entry.onProgress == null) {
      return;
    }
    Object value = body.getValue("progress");
    JsonObject report = value instanceof JsonObject json ? json
        : new JsonObject().put("value", value);
    // The caller's context runs its tasks in order: a report queued before the answer is
    // heard before it, and one after it finds the entry answered.
    onCaller(entry, () -> {
      if (!entry.answered) {
        entry.onProgress.handle(report);
      }
    });
  }

  private void ignore(Object body, String why) {
    malformed.incrementAndGet();
    LOG.debug("pool {}: ignored a message at reply address {} that is not an outcome ({}): {}",
        LogText.quote(pool), address, LogText.quote(why), LogText.quote(body));
  }

  private void expire(String job, Waiting entry) {
    if (waiting.remove(job, entry)) {
      fail(entry, new ReplyException(ReplyFailure.TIMEOUT, "pool " + pool + ": no outcome for"
          + " job " + job + " within " + timeoutMs + " ms; the client no longer waits for"
          + " it (the job may still run, and an outcome arriving later is ignored)"));
    }
  }

  /** Looks up, then answers or fails, every submit whose deadline has passed. */
  private void sweep() {
    long now = System.nanoTime();
    for (Map.Entry<String, Waiting> entry : waiting.entrySet()) {
      Waiting waits = entry.getValue();
      if (now - waits.deadline >= 0 && !waits.lookingUp) {
        waits.lookingUp = true;
        lookUpAtDeadline(entry.getKey(), waits);
      }
    }
  }

  /**
   * At a submit's deadline: an outcome the pool sent that never arrived answers it ({@link
   * SentOutcomes}); anything else ends it with the timeout.
   */
  private void lookUpAtDeadline(String job, Waiting entry) {
    SentOutcomes.find(vertx, entry.addresses, job, Math.min(timeoutMs, LOOKUP_AT_TIMEOUT_MS))
        .onComplete(ar -> {
          if (ar.result() == null) {
            expire(job, entry);
          } else if (waiting.remove(job, entry)) {
            LOG.debug("pool {}: the outcome of job {} never reached this client; its lookup at"
                + " the deadline found it", LogText.quote(pool), LogText.quote(job));
            answer(entry, ar.result());
          }
        });
  }

  private void answer(Waiting entry, Outcome outcome) {
    onCaller(entry, () -> {
      entry.answered = true;
      entry.onAnswer.handle(outcome);
    });
  }

  private void fail(Waiting entry, Throwable failure) {
    onCaller(entry, () -> {
      entry.answered = true;
      entry.onFailure.handle(failure);
    });
  }

  private static void onCaller(Waiting entry, Runnable task) {
    if (entry.caller == null || entry.caller == Vertx.currentContext()) {
      task.run();
    } else {
      entry.caller.runOnContext(v -> task.run());
    }
  }

  /** The consumer's registration, started at the first call; a failed one is tried again. */
  private synchronized Future<Void> ready() {
    if (ready == null || ready.failed()) {
      Promise<Void> registered = Promise.promise();
      ((VertxInternal) vertx).createEventLoopContext()
          .runOnContext(v -> register(registered, REGISTRATION_ATTEMPTS));
      ready = registered.future();
    }
    return ready;
  }

  /**
   * Registers the consumer; a registration the cluster fails (as it may while a member is being
   * lost: the subscription's replicated write ends in an indeterminate state) is tried again,
   * {@code attempts} times in all, {@link #REGISTRATION_RETRY_MS} apart, on the caller's context.
   */
  private void register(Promise<Void> registered, int attempts) {
    MessageConsumer<Object> registering;
    synchronized (this) {
      if (closed) {
        registered.fail(new IllegalStateException("the client of pool " + pool + " is closed"));
        return;
      }
      registering = vertx.eventBus().consumer(address, this::onMessage);
      consumer = registering;
      if (sweeper < 0) {
        sweeper = vertx.setPeriodic(Math.min(1000, Math.max(10, timeoutMs / 8)),
            id -> sweep());
      }
    }
    registering.completion().onComplete(ar -> {
      if (ar.succeeded() || attempts <= 1) {
        registered.handle(ar);
        return;
      }
      LOG.debug("pool {}: registering reply address {} failed ({}); trying again",
          LogText.quote(pool), address, LogText.quote(String.valueOf(ar.cause())));
      registering.unregister().onComplete(u ->
          vertx.setTimer(REGISTRATION_RETRY_MS, id -> register(registered, attempts - 1)));
    });
  }

  /** Unregisters the consumer and fails every submit still waiting. */
  public Future<Void> close() {
    MessageConsumer<Object> registered;
    synchronized (this) {
      if (closed) {
        return Future.succeededFuture();
      }
      closed = true;
      registered = consumer;
      consumer = null;
      if (sweeper >= 0) {
        vertx.cancelTimer(sweeper);
      }
    }
    for (Map.Entry<String, Waiting> entry : waiting.entrySet()) {
      if (waiting.remove(entry.getKey(), entry.getValue())) {
        fail(entry.getValue(), closedError(entry.getKey()));
      }
    }
    return registered == null ? Future.succeededFuture() : registered.unregister();
  }

  private IllegalStateException closedError(String job) {
    return new IllegalStateException("the client of pool " + pool + " is closed; job " + job
        + " gets no outcome through it");
  }
}
