package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Sender#of}'s send that tells when the bus wrote a message (A3: a durable pool reports
 * an answer delivered only then): once the consumer has it, or at once when the send throws, so
 * no answer waits in the gate for a report that never comes.
 */
class SenderTest {
  private static Vertx vertx;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  void A3_a_send_tells_it_was_written_once_the_bus_wrote_it() {
    List<Object> received = new CopyOnWriteArrayList<>();
    vertx.eventBus().consumer("sender.test.answers", m -> received.add(m.body()))
        .completion().await();
    AtomicInteger written = new AtomicInteger();

    Sender.of(vertx.eventBus()).send("sender.test.answers", new JsonObject().put("a", 1),
        written::incrementAndGet);

    await().atMost(Duration.ofSeconds(10)).until(() -> written.get() == 1);
    await().atMost(Duration.ofSeconds(10)).until(() -> received.size() == 1);
    assertThat(received).containsExactly(new JsonObject().put("a", 1));
  }

  @Test
  void A3_a_send_that_throws_tells_it_was_given_up_on() {
    AtomicInteger written = new AtomicInteger();

    assertThatThrownBy(() -> Sender.of(vertx.eventBus()).send("sender.test.nobody",
        new Object(), written::incrementAndGet)).isInstanceOf(IllegalArgumentException.class);

    assertThat(written).hasValue(1);
  }
}
