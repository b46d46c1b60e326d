package dev.shepherd.runtime.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What waits on a node ends when the node leaves the cluster (A1 in docs/rules.md). */
class PendingRequestsTest {
  private final PendingRequests pending = new PendingRequests();

  @Test
  void A1_a_request_still_waiting_when_the_node_leaves_fails_NO_HANDLERS_at_once() {
    Future<String> waiting = pending.track(() -> Promise.<String>promise().future());
    assertThat(pending.size()).isEqualTo(1);

    pending.nodeLeft("node n1 left the cluster");

    assertThat(waiting.failed()).isTrue();
    assertThat(waiting.cause()).isInstanceOfSatisfying(ReplyException.class, e -> {
      assertThat(e.failureType()).isEqualTo(ReplyFailure.NO_HANDLERS);
      assertThat(e.getMessage()).isEqualTo("node n1 left the cluster");
    });
    assertThat(pending.size()).isZero();
  }

  @Test
  void A1_after_the_node_left_a_request_is_not_sent_and_fails_at_once() {
    pending.nodeLeft("gone");
    AtomicInteger sent = new AtomicInteger();

    Future<String> asked = pending.track(() -> {
      sent.incrementAndGet();
      return Future.succeededFuture("answer");
    });

    assertThat(sent).hasValue(0);
    assertThat(asked.failed()).isTrue();
  }

  @Test
  void an_answered_request_is_forgotten_and_keeps_its_answer_when_the_node_leaves_later() {
    Promise<String> reply = Promise.promise();
    Future<String> asked = pending.track(reply::future);
    Future<String> failing =
        pending.track(() -> Future.failedFuture(new IllegalStateException("x")));

    reply.complete("answer");
    pending.nodeLeft("gone");

    assertThat(asked.result()).isEqualTo("answer");
    assertThat(failing.cause()).isInstanceOf(IllegalStateException.class);
    assertThat(pending.size()).isZero();
  }
}
