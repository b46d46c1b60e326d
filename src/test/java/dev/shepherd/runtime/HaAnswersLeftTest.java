package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.core.DurableImage;
import dev.shepherd.core.DurableRecord;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.wire.Responder;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A3 (docs/rules.md) in the runtime: a durable pool reports a job's answer delivered only once
 * the bus wrote it. Until then the journal holds it among the answers a successor sends again, so
 * a {@code kill -9} while the answer is still inside the process (at the turn's end, with a
 * worker thread, queued for a connection's event loop) loses nothing. Seen in HaFailoverTest
 * before: a batch that said "delivered" reached the cluster before the answer left.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HaAnswersLeftTest {
  /** A submitter's address whose bus holds the terminal answer's write until told. */
  private static final class HeldWrites implements Responder {
    final List<Outcome> answers = new CopyOnWriteArrayList<>();
    volatile Runnable left;

    @Override
    public void respond(Outcome outcome) {
      answers.add(outcome);
    }

    @Override
    public void respond(Outcome outcome, Throwable cause, Runnable left) {
      answers.add(outcome);
      if (outcome.terminal()) {
        this.left = left;
      } else {
        left.run();
      }
    }

    @Override
    public String address() {
      return "submitter.answers";
    }
  }

  private static boolean reported(HaTestStore store, String job) {
    return store.batches().stream().map(DurableGate.Batch::delivered)
        .anyMatch(delivered -> delivered.contains(job));
  }

  @Test
  void A3_an_answer_is_reported_delivered_only_once_the_bus_wrote_it() {
    HaTestStore store = new HaTestStore();
    HeldWrites submitter = new HeldWrites();
    try (HaTestLeader leader = new HaTestLeader(new FakeTime(), store, 1,
        new DurableLog.Recovered(DurableImage.empty(0), List.of()))) {
      leader.submit("a", new JsonObject().put("echo", 1), submitter);
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
          .until(() -> submitter.left != null);
      assertThat(submitter.answers).hasSize(2).last().isInstanceOf(Outcome.Completed.class);
      // The answer's record is written by now; the leader's queue is drained.
      leader.on(() -> null);
      assertThat(reported(store, "a")).isFalse();
      assertThat(store.recovered(2).undelivered()).extracting(DurableRecord.Answered::job)
          .as("a successor would send it again").containsExactly("a");

      Thread writer = new Thread(submitter.left, "connection-loop");
      writer.start();
      await().atMost(PoolFixture.STEP).pollInterval(Duration.ofMillis(10))
          .until(() -> reported(store, "a"));
      assertThat(store.recovered(2).undelivered()).isEmpty();
    }
  }
}
