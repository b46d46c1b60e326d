package dev.shepherd.runtime.access;

import dev.shepherd.runtime.payload.LogText;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumers of some of a highly available pool's addresses that a standby registers while it
 * claims the pool, its leader's member having left (A3 in docs/rules.md). On a clustered bus a
 * consumer is only reachable once its registration is written to the cluster, which after a
 * member left waits behind Hazelcast's partition migration as long as the claim itself does
 * (0.4-1.7 s measured, docs/benchmarks.md): registered side by side with the claim rather than
 * after it, they take that wait off a failover.
 *
 * <p>Until the node serves the pool ({@link #serve}), what arrives is held in order, up to {@link
 * #MAX_HELD} messages (one more is refused); then the held messages go to the coordinator's
 * routes first, in the order they came. When another node leads, or the claim takes too long
 * ({@link #withdraw}), the held messages are refused {@code NO_HANDLERS}, as a request that
 * found no consumer is (a {@code PoolClient} sends it again), and the consumers go. One context
 * registers, serves and withdraws them, and their handlers run on it.
 */
public final class ReadyConsumers {
  private static final Logger LOG = LoggerFactory.getLogger(ReadyConsumers.class);
  /** The most messages held before the node serves the pool. */
  static final int MAX_HELD = 10_000;

  private final Map<String, MessageConsumer<Object>> consumers = new LinkedHashMap<>();
  private final ArrayDeque<Message<Object>> held = new ArrayDeque<>();
  private final String pool;
  /** The coordinator's handlers once the node serves the pool; null while it stands ready. */
  private Map<String, Handler<Message<Object>>> routes;
  private boolean withdrawn;

  private ReadyConsumers(String pool) {
    this.pool = pool;
  }

  /**
   * Consumers of {@code addresses} of {@code pool} on {@code bus}, holding what arrives. One that
   * fails to register in the cluster (it can while partitions move) is unregistered at once, so
   * that nothing this node routes to it is dropped; the messages it held stay held.
   */
  public static ReadyConsumers register(EventBus bus, String pool, List<String> addresses) {
    ReadyConsumers ready = new ReadyConsumers(pool);
    long start = System.nanoTime();
    for (String address : addresses) {
      MessageConsumer<Object> consumer = bus.consumer(address, ready::arrived);
      ready.consumers.put(address, consumer);
      // How long the cluster took to know of it: a failover's submits reach it only from then.
      consumer.completion().onSuccess(v -> LOG.info("pool {}: the consumer of {} made ready"
          + " while claiming is registered in the cluster after {} ms", pool, address,
          (System.nanoTime() - start) / 1_000_000));
      consumer.completion().onFailure(e -> {
        LOG.warn("pool {}: the consumer of {} made ready while claiming could not be"
            + " registered ({}); the term registers its own", pool, address,
            LogText.quote(String.valueOf(e.getMessage())));
        consumer.unregister();
      });
    }
    return ready;
  }

  /** Whether one of these consumers is {@code address}'s. */
  public boolean holds(String address) {
    return consumers.containsKey(address);
  }

  /** Whether the node serves the pool through them. */
  public boolean serving() {
    return routes != null;
  }

  /** Completes once every consumer is registered in the cluster. */
  public Future<Void> completion() {
    List<Future<Void>> done = new ArrayList<>();
    consumers.values().forEach(c -> done.add(c.completion()));
    return Future.all(done).mapEmpty();
  }

  /** How many messages are held, for tests. */
  int heldCount() {
    return held.size();
  }

  private void arrived(Message<Object> message) {
    if (routes != null) {
      routes.get(message.address()).handle(message);
    } else if (withdrawn || held.size() >= MAX_HELD) {
      refuse(message);
    } else {
      held.addLast(message);
    }
  }

  /**
   * The node serves the pool: from now on each address's messages go to its handler in {@code
   * routes}, the held ones first, in the order they came.
   */
  public void serve(Map<String, Handler<Message<Object>>> routes) {
    if (withdrawn) {
      throw new IllegalStateException("pool " + pool + ": consumers withdrawn already");
    }
    this.routes = Map.copyOf(routes);
    LOG.info("pool {}: serves through the consumers made ready while it claimed the pool, {}"
        + " requests held", pool, held.size());
    while (!held.isEmpty()) {
      Message<Object> message = held.pollFirst();
      this.routes.get(message.address()).handle(message);
    }
  }

  /** Refuses what is held ({@code NO_HANDLERS}) and unregisters the consumers. */
  public Future<Void> withdraw() {
    withdrawn = true;
    routes = null;
    while (!held.isEmpty()) {
      refuse(held.pollFirst());
    }
    List<Future<Void>> done = new ArrayList<>();
    consumers.values().forEach(c -> done.add(c.unregister()));
    return Future.join(done).mapEmpty();
  }

  private void refuse(Message<Object> message) {
    if (message.replyAddress() != null) {
      message.reply(new ReplyException(ReplyFailure.NO_HANDLERS, -1,
          "no node leads pool " + pool + " now"));
    }
  }
}
