package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.refused;
import static dev.shepherd.runtime.PoolFixture.run;
import static dev.shepherd.runtime.PoolFixture.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.wire.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed input on every address of protocol v1 (section 6): each is answered {@code fail(400,
 * …)} with a message naming the field (or {@code fail(409, NAME …)} for a state-machine refusal),
 * and changes nothing: the status snapshot, counters included, is the same before and after (the
 * dead-letter addresses and {@code .job} of J5 and J6 included, refusing an unknown job with
 * {@code fail(404, "UNKNOWN_JOB: …")}).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class BusBadInputTest {
  private static final String POOL = "strict";

  private static Arguments bad(String name, Function<Addresses, String> address, Object body,
      int code, String field) {
    return Arguments.of(name, address, body, code, field);
  }

  private static JsonObject submit(Object payload) {
    return new JsonObject().put("payload", payload);
  }

  private static JsonObject done(String worker, Object assignment) {
    return new JsonObject().put("worker", worker).put("assignment", assignment);
  }

  static Stream<Arguments> malformed() {
    Function<Addresses, String> submit = Addresses::submit;
    Function<Addresses, String> completed = Addresses::completed;
    Function<Addresses, String> rebalance = Addresses::rebalance;
    Function<Addresses, String> cancel = Addresses::cancel;
    Function<Addresses, String> status = Addresses::status;
    Function<Addresses, String> revive = Addresses::revive;
    Function<Addresses, String> size = Addresses::size;
    Function<Addresses, String> history = Addresses::history;
    String id257 = "x".repeat(257);
    return Stream.of(
        // .submit
        bad("submit text that is not JSON", submit, "not json", 400, "body"),
        bad("submit invalid JSON buffer", submit, Buffer.buffer("{\"payload\":"), 400, "body"),
        bad("submit JSON array", submit, new JsonArray().add(1), 400, "body"),
        bad("submit JSON array as text", submit, "[1,2]", 400, "body"),
        bad("submit number", submit, 42, 400, "body"),
        bad("submit no body", submit, null, 400, "body"),
        bad("submit missing payload", submit, new JsonObject().put("job", "j"), 400, "payload"),
        bad("submit job number", submit, submit(1).put("job", 5), 400, "job"),
        bad("submit job empty", submit, submit(1).put("job", ""), 400, "job"),
        bad("submit job 257 chars", submit, submit(1).put("job", id257), 400, "job"),
        bad("submit job object", submit, submit(1).put("job", new JsonObject()), 400, "job"),
        bad("submit key boolean", submit, submit(1).put("key", true), 400, "key"),
        bad("submit key empty", submit, submit(1).put("key", ""), 400, "key"),
        bad("submit key 257 chars", submit, submit(1).put("key", id257), 400, "key"),
        bad("submit timeout negative", submit, submit(1).put("timeoutMs", -1), 400, "timeoutMs"),
        bad("submit timeout zero", submit, submit(1).put("timeoutMs", 0), 400, "timeoutMs"),
        bad("submit timeout fractional", submit, submit(1).put("timeoutMs", 1.5), 400, "timeoutMs"),
        bad("submit timeout text", submit, submit(1).put("timeoutMs", "100"), 400, "timeoutMs"),
        bad("submit timeout huge", submit, submit(1).put("timeoutMs", 1L << 40), 400, "timeoutMs"),
        bad("submit timeout max long", submit, submit(1).put("timeoutMs", Long.MAX_VALUE), 400,
            "timeoutMs"),
        bad("submit replyTo number", submit, submit(1).put("replyTo", 7), 400, "replyTo"),
        bad("submit replyTo empty", submit, submit(1).put("replyTo", ""), 400, "replyTo"),
        bad("submit unknown field", submit, submit(1).put("colour", 9), 400, "colour"),
        // .submit, section 10's fields (J3, J4)
        bad("submit delayMs negative", submit, submit(1).put("delayMs", -1), 400, "delayMs"),
        bad("submit delayMs fractional", submit, submit(1).put("delayMs", 2.5), 400, "delayMs"),
        bad("submit delayMs text", submit, submit(1).put("delayMs", "500"), 400, "delayMs"),
        bad("submit delayMs above maxDelayMs", submit, submit(1).put("delayMs", 86_400_001), 400,
            "delayMs: must be at most 86400000"),
        bad("submit delayMs above maxDelayMs as text", submit,
            "{\"payload\":1,\"delayMs\":86400001}", 400, "delayMs: must be at most 86400000"),
        bad("submit retry not an object", submit, submit(1).put("retry", 3), 400, "retry"),
        bad("submit retry maxAttempts 0", submit,
            submit(1).put("retry", new JsonObject().put("maxAttempts", 0)), 400,
            "retry.maxAttempts"),
        bad("submit retry maxAttempts text", submit,
            submit(1).put("retry", new JsonObject().put("maxAttempts", "2")), 400,
            "retry.maxAttempts"),
        bad("submit retry backoff multiplier 0.5", submit, submit(1).put("retry",
            new JsonObject().put("backoff", new JsonObject().put("multiplier", 0.5))), 400,
            "retry.backoff.multiplier"),
        bad("submit retry backoff maxMs below initialMs as buffer", submit, Buffer.buffer(
            "{\"payload\":1,\"retry\":{\"backoff\":{\"initialMs\":9,\"maxMs\":1}}}"), 400,
            "retry.backoff.maxMs"),
        bad("submit retry unknown field", submit,
            submit(1).put("retry", new JsonObject().put("attempts", 2)), 400, "retry.attempts"),
        // .completed
        bad("completed empty object", completed, new JsonObject(), 400, "worker"),
        bad("completed worker number", completed, done(null, 1).put("worker", 5).put("result", 1),
            400, "worker"),
        bad("completed missing assignment", completed,
            new JsonObject().put("worker", "w-0").put("result", 1), 400, "assignment"),
        bad("completed assignment text", completed, done("w-0", "1").put("result", 1), 400,
            "assignment"),
        bad("completed assignment fractional", completed, done("w-0", 1.5).put("result", 1), 400,
            "assignment"),
        bad("completed neither result nor error", completed, done("w-0", 1), 400, "result/error"),
        bad("completed both result and error", completed, done("w-0", 1).put("result", 1)
            .put("error", new JsonObject().put("code", 1).put("message", "m")), 400,
            "result/error"),
        bad("completed error text", completed, done("w-0", 1).put("error", "boom"), 400, "error"),
        bad("completed error code text", completed, done("w-0", 1)
            .put("error", new JsonObject().put("code", "x").put("message", "m")), 400, "error.code"),
        bad("completed error without message", completed, done("w-0", 1)
            .put("error", new JsonObject().put("code", 1)), 400, "error.message"),
        bad("completed error unknown field", completed, done("w-0", 1).put("error",
            new JsonObject().put("code", 1).put("message", "m").put("stack", "…")), 400,
            "error.stack"),
        bad("completed error type number", completed, done("w-0", 1).put("error",
            new JsonObject().put("code", 1).put("message", "m").put("type", 7)), 400,
            "error.type"),
        bad("completed error type empty", completed, done("w-0", 1).put("error",
            new JsonObject().put("code", 1).put("message", "m").put("type", "")), 400,
            "error.type"),
        bad("completed error type object", completed, done("w-0", 1).put("error",
            new JsonObject().put("code", 1).put("message", "m").put("type", new JsonObject())),
            400, "error.type"),
        bad("completed error type array", completed, done("w-0", 1).put("error",
            new JsonObject().put("code", 1).put("message", "m").put("type", new JsonArray())),
            400, "error.type"),
        bad("completed unknown field", completed, done("w-0", 1).put("result", 1).put("x", 1), 400,
            "x"),
        bad("completed not JSON", completed, "garbage", 400, "body"),
        bad("completed unknown worker", completed, done("w-9", 1).put("result", 1), 409,
            "UNKNOWN_WORKER"),
        // .rebalance
        bad("rebalance empty object", rebalance, new JsonObject(), 400, "key"),
        bad("rebalance missing worker", rebalance, new JsonObject().put("key", "k"), 400, "worker"),
        bad("rebalance key number", rebalance, new JsonObject().put("key", 1).put("worker", "w-0"),
            400, "key"),
        bad("rebalance key empty", rebalance, new JsonObject().put("key", "").put("worker", "w-0"),
            400, "key"),
        bad("rebalance worker 257 chars", rebalance,
            new JsonObject().put("key", "k").put("worker", id257), 400, "worker"),
        bad("rebalance unknown field", rebalance,
            new JsonObject().put("key", "k").put("worker", "w-0").put("force", true), 400, "force"),
        bad("rebalance unknown worker", rebalance,
            new JsonObject().put("key", "k").put("worker", "w-9"), 409, "UNKNOWN_WORKER"),
        bad("rebalance JSON array", rebalance, new JsonArray(), 400, "body"),
        // .cancel
        bad("cancel empty object", cancel, new JsonObject(), 400, "job"),
        bad("cancel job number", cancel, new JsonObject().put("job", 1), 400, "job"),
        bad("cancel job empty", cancel, new JsonObject().put("job", ""), 400, "job"),
        bad("cancel job 300 chars", cancel, new JsonObject().put("job", "j".repeat(300)), 400,
            "job"),
        bad("cancel unknown field", cancel, new JsonObject().put("job", "j").put("all", true), 400,
            "all"),
        bad("cancel text", cancel, "j1", 400, "body"),
        // .status
        bad("status unknown field", status, new JsonObject().put("verbose", true), 400, "verbose"),
        bad("status text", status, "please", 400, "body"),
        bad("status array", status, new JsonArray().add("x"), 400, "body"),
        // .size (F6)
        bad("size no body", size, null, 400, "body"),
        bad("size text", size, "six", 400, "body"),
        bad("size array", size, new JsonArray().add(3), 400, "body"),
        bad("size empty object", size, new JsonObject(), 400, "instances"),
        bad("size both null", size, new JsonObject().putNull("instances")
            .putNull("maxConcurrency"), 400, "instances"),
        bad("size instances text", size, new JsonObject().put("instances", "3"), 400,
            "instances"),
        bad("size instances fractional", size, new JsonObject().put("instances", 2.5), 400,
            "instances"),
        bad("size instances negative", size, new JsonObject().put("instances", -1), 400,
            "instances"),
        bad("size instances too many", size, new JsonObject().put("instances", 10_001), 400,
            "instances"),
        bad("size instances zero without hosts", size, new JsonObject().put("instances", 0), 400,
            "instances"),
        bad("size instances huge", size, new JsonObject().put("instances", 1L << 40), 400,
            "instances"),
        bad("size maxConcurrency zero", size, new JsonObject().put("maxConcurrency", 0), 400,
            "maxConcurrency"),
        bad("size maxConcurrency boolean", size, new JsonObject().put("maxConcurrency", true),
            400, "maxConcurrency"),
        bad("size maxConcurrency too high", size,
            new JsonObject().put("maxConcurrency", 1_000_001), 400, "maxConcurrency"),
        bad("size unknown field", size, new JsonObject().put("instances", 2).put("slots", 2),
            400, "slots"),
        // .revive
        bad("revive empty object", revive, new JsonObject(), 400, "worker"),
        bad("revive no body", revive, null, 400, "body"),
        bad("revive worker null", revive, new JsonObject().putNull("worker"), 400, "worker"),
        bad("revive worker number", revive, new JsonObject().put("worker", 0), 400, "worker"),
        bad("revive worker array", revive, new JsonObject().put("worker", new JsonArray()), 400,
            "worker"),
        bad("revive worker empty", revive, new JsonObject().put("worker", ""), 400, "worker"),
        bad("revive worker 257 chars", revive, new JsonObject().put("worker", id257), 400,
            "worker"),
        bad("revive unknown field", revive,
            new JsonObject().put("worker", "w-0").put("force", true), 400, "force"),
        bad("revive slot instead of worker", revive, new JsonObject().put("slot", "w-0"), 400,
            "slot"),
        bad("revive text", revive, "w-0", 400, "body"),
        bad("revive truncated JSON", revive, "{\"worker\":", 400, "body"),
        bad("revive JSON array", revive, new JsonArray().add("w-0"), 400, "body"),
        bad("revive unknown worker", revive, new JsonObject().put("worker", "w-9"), 409,
            "UNKNOWN_WORKER"),
        bad("revive a slot that is not retired", revive, new JsonObject().put("worker", "w-0"),
            409, "REVIVE_REFUSED"),
        // .history
        bad("history unknown field", history, new JsonObject().put("since", 0), 400, "since"),
        bad("history text", history, "all", 400, "body"),
        bad("history array", history, new JsonArray(), 400, "body"));
  }

  private static JsonObject lookup(Object job) {
    return new JsonObject().put("job", job);
  }

  /** J5, J6: {@code .job} and the dead-letter addresses. */
  static Stream<Arguments> malformedJobQueries() {
    Function<Addresses, String> job = Addresses::job;
    Function<Addresses, String> list = Addresses::deadLetters;
    String id257 = "x".repeat(257);
    Stream<Arguments> lookups = Stream.of(
        bad("job empty object", job, new JsonObject(), 400, "job"),
        bad("job no body", job, null, 400, "body"),
        bad("job text", job, "j1", 400, "body"),
        bad("job JSON array", job, new JsonArray().add("j1"), 400, "body"),
        bad("job truncated JSON", job, "{\"job\":", 400, "body"),
        bad("job id null", job, new JsonObject().putNull("job"), 400, "job"),
        bad("job id number", job, lookup(7), 400, "job"),
        bad("job id empty", job, lookup(""), 400, "job"),
        bad("job id 257 chars", job, lookup(id257), 400, "job"),
        bad("job wait text", job, lookup("j").put("wait", "yes"), 400, "wait"),
        bad("job wait number", job, lookup("j").put("wait", 1), 400, "wait"),
        bad("job timeout without wait", job, lookup("j").put("timeoutMs", 10), 400, "timeoutMs"),
        bad("job timeout with wait false", job, lookup("j").put("wait", false)
            .put("timeoutMs", 10), 400, "timeoutMs"),
        bad("job timeout zero", job, lookup("j").put("wait", true).put("timeoutMs", 0), 400,
            "timeoutMs"),
        bad("job timeout negative", job, lookup("j").put("wait", true).put("timeoutMs", -5), 400,
            "timeoutMs"),
        bad("job timeout fractional", job, lookup("j").put("wait", true).put("timeoutMs", 1.5),
            400, "timeoutMs"),
        bad("job timeout text", job, lookup("j").put("wait", true).put("timeoutMs", "10"), 400,
            "timeoutMs"),
        bad("job timeout over an hour", job, lookup("j").put("wait", true)
            .put("timeoutMs", 3_600_001), 400, "timeoutMs"),
        bad("job unknown field", job, lookup("j").put("state", "DEAD"), 400, "state"),
        bad("job unknown job", job, lookup("never"), 404, "UNKNOWN_JOB"),
        bad("job unknown job, waiting", job, lookup("never").put("wait", true), 404,
            "UNKNOWN_JOB"),
        bad("dead list offset negative", list, new JsonObject().put("offset", -1), 400, "offset"),
        bad("dead list offset text", list, new JsonObject().put("offset", "0"), 400, "offset"),
        bad("dead list offset fractional", list, new JsonObject().put("offset", 0.5), 400,
            "offset"),
        bad("dead list offset huge", list, new JsonObject().put("offset", 1L << 40), 400,
            "offset"),
        bad("dead list limit zero", list, new JsonObject().put("limit", 0), 400, "limit"),
        bad("dead list limit 501", list, new JsonObject().put("limit", 501), 400, "limit"),
        bad("dead list limit text", list, new JsonObject().put("limit", "10"), 400, "limit"),
        bad("dead list limit boolean", list, new JsonObject().put("limit", true), 400, "limit"),
        bad("dead list unknown field", list, new JsonObject().put("reason", "POISON"), 400,
            "reason"),
        bad("dead list text", list, "all", 400, "body"),
        bad("dead list array", list, new JsonArray(), 400, "body"));
    Stream<Arguments> entries = Stream.<Function<Addresses, String>>of(Addresses::deadLetter,
            Addresses::replayDead, Addresses::discardDead)
        .flatMap(address -> {
          String name = address.apply(new Addresses("p")).substring(2);
          return Stream.of(
              bad(name + " empty object", address, new JsonObject(), 400, "job"),
              bad(name + " no body", address, null, 400, "body"),
              bad(name + " text", address, "j1", 400, "body"),
              bad(name + " JSON array", address, new JsonArray().add("j1"), 400, "body"),
              bad(name + " job null", address, new JsonObject().putNull("job"), 400, "job"),
              bad(name + " job number", address, lookup(1), 400, "job"),
              bad(name + " job object", address, lookup(new JsonObject()), 400, "job"),
              bad(name + " job empty", address, lookup(""), 400, "job"),
              bad(name + " job 257 chars", address, lookup(id257), 400, "job"),
              bad(name + " unknown field", address, lookup("j").put("force", true), 400,
                  "force"),
              bad(name + " unknown job", address, lookup("never"), 404, "UNKNOWN_JOB"));
        });
    return Stream.concat(lookups, entries);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"malformed", "malformedJobQueries"})
  void malformed_input_is_refused_naming_the_field_and_changes_nothing(String name,
      Function<Addresses, String> address, Object body, int code, String field, Vertx vertx) {
    deployReady(vertx, demoPool(POOL, 2));
    run(vertx, POOL, echo("warm"));
    JsonObject before = status(vertx, POOL);

    ReplyException refusal = refused(vertx, address.apply(Addresses.forPool(POOL)), body);

    assertThat(refusal.failureCode()).isEqualTo(code);
    assertThat(refusal.getMessage()).startsWith(field);
    assertThat(refusal.getMessage().length()).as("one short line").isLessThan(300);
    assertThat(status(vertx, POOL)).isEqualTo(before);
  }
}
