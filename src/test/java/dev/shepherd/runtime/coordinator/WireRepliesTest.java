package dev.shepherd.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.shepherd.runtime.wire.Sender;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.internal.VertxInternal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link WireReplies}: a turn's replies to requests from another node leave after the turn, the
 * only one on the coordinator's thread, two or more together from a worker thread; a reply to a
 * request from this JVM at once. Each request is answered once either way.
 */
class WireRepliesTest {
  private static Vertx vertx;

  private final List<Runnable> later = new ArrayList<>();
  private int writersMade;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  /** A request that records its replies and the thread that wrote each. */
  static final class Request implements Message<Object> {
    final boolean fromWire;
    final List<Object> replies = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();

    Request(boolean fromWire) {
      this.fromWire = fromWire;
    }

    @Override
    public void reply(Object body, DeliveryOptions options) {
      replies.add(body);
      threads.add(Thread.currentThread().getName());
    }

    @Override
    public String address() {
      return "shepherd.test.submit";
    }

    @Override
    public MultiMap headers() {
      return MultiMap.caseInsensitiveMultiMap();
    }

    @Override
    public Object body() {
      return null;
    }

    @Override
    public String replyAddress() {
      return "__vertx.reply.1";
    }

    @Override
    public boolean isSend() {
      return true;
    }

    @Override
    public <R> Future<Message<R>> replyAndRequest(Object body, DeliveryOptions options) {
      throw new UnsupportedOperationException();
    }
  }

  private WireReplies replies() {
    Context writer = ((VertxInternal) vertx).createWorkerContext();
    return new WireReplies(later::add, m -> ((Request) m).fromWire, () -> {
      writersMade++;
      return writer;
    }, null);
  }

  @Test
  void a_turns_only_reply_to_another_node_is_written_at_the_turns_end_on_its_thread() {
    WireReplies replies = replies();
    Request request = new Request(true);

    replies.reply(request, "done");

    assertThat(request.replies).as("not during the turn").isEmpty();
    replies.flush();
    assertThat(request.replies).containsExactly("done");
    assertThat(request.threads).containsExactly(Thread.currentThread().getName());
    assertThat(writersMade).as("no writer for a reply alone").isZero();
  }

  @Test
  void a_turns_replies_to_other_nodes_are_written_together_after_the_turn_from_a_worker() {
    WireReplies replies = replies();
    Request a = new Request(true);
    Request b = new Request(true);

    replies.reply(a, "a");
    replies.reply(b, "b");

    assertThat(a.replies).as("not during the turn").isEmpty();
    assertThat(b.replies).isEmpty();
    assertThat(later).as("one flush queued for the turn's end").hasSize(1);
    later.get(0).run();
    await().atMost(Duration.ofSeconds(10))
        .until(() -> a.replies.size() == 1 && b.replies.size() == 1);
    assertThat(a.replies).containsExactly("a");
    assertThat(b.replies).containsExactly("b");
    assertThat(a.threads.get(0)).as("written off every event loop").startsWith("vert.x-worker");
    assertThat(writersMade).as("one writer context, made at the first batch").isEqualTo(1);

    replies.flush();
    assertThat(a.replies).as("each written once").hasSize(1);
  }

  @Test
  void what_goes_to_a_replyto_address_for_another_node_leaves_in_order_with_the_replies() {
    WireReplies replies = replies();
    Request request = new Request(true);
    List<Object> sent = new CopyOnWriteArrayList<>();
    Sender bus = (address, body) -> {
      sent.add(address + ":" + body);
      request.replies.add("sent " + body);
    };

    replies.reply(request, "accepted");
    replies.send(request, bus, "client.7", "progress");
    replies.send(request, bus, "client.7", "completed");
    assertThat(request.replies).as("not during the turn").isEmpty();
    replies.flush();

    await().atMost(Duration.ofSeconds(10)).until(() -> request.replies.size() == 3);
    assertThat(request.replies).containsExactly("accepted", "sent progress", "sent completed");
    assertThat(sent).containsExactly("client.7:progress", "client.7:completed");
  }

  @Test
  void a_turns_only_answer_waits_behind_earlier_turns_answers_still_being_written() throws Exception {
    Context writer = ((VertxInternal) vertx).createWorkerContext();
    WireReplies replies = new WireReplies(later::add, m -> ((Request) m).fromWire, () -> writer,
        null);
    java.util.concurrent.CountDownLatch hold = new java.util.concurrent.CountDownLatch(1);
    writer.runOnContext(v -> {
      try {
        hold.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    Request request = new Request(true);

    replies.reply(request, "admitted");
    replies.reply(new Request(true), "another");
    replies.flush();
    replies.send(request, (address, body) -> request.replies.add(body), "client.7", "completed");
    replies.flush();

    assertThat(request.replies).as("not ahead of the admission, still being written").isEmpty();
    hold.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> request.replies.size() == 2);
    assertThat(request.replies).containsExactly("admitted", "completed");
  }

  @Test
  void A3_an_outcome_for_another_node_tells_it_was_written_only_after_the_bus_wrote_it() {
    WireReplies replies = replies();
    Request request = new Request(true);
    List<String> events = new CopyOnWriteArrayList<>();
    Sender bus = new Sender() {
      @Override
      public void send(String address, Object body) {
        events.add("sent " + body);
      }

      @Override
      public void send(String address, Object body, Runnable written) {
        events.add("sent " + body);
        written.run();
      }
    };

    replies.send(request, bus, "client.7", "completed", () -> events.add("written"));

    assertThat(events).as("nothing written during the turn, nothing reported").isEmpty();
    replies.flush();
    assertThat(events).containsExactly("sent completed", "written");
  }

  @Test
  void a_reply_to_a_request_from_this_jvm_is_written_at_once() {
    Request local = new Request(false);

    replies().reply(local, "here");

    assertThat(local.replies).containsExactly("here");
    assertThat(later).isEmpty();
    assertThat(writersMade).isZero();
  }

  @Test
  void on_a_vertx_that_is_not_clustered_every_answer_is_written_at_once() {
    Request request = new Request(true);
    WireReplies replies = WireReplies.of(vertx, later::add);

    replies.reply(request, "local");
    replies.send(request, (address, body) -> request.replies.add(body), "client.7", "sent");

    assertThat(request.replies).containsExactly("local", "sent");
    assertThat(later).isEmpty();
  }
}
