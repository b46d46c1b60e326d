package dev.shepherd.runtime.ha;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.PoolFixture;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A standby's network warm-up (A3 in docs/rules.md: a takeover's first connections run warm
 * code): one exchange over loopback, which completes, echoes what it wrote, and can run again
 * (each time on an ephemeral port of its own, closed afterwards).
 */
class NetworkWarmUpTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    PoolFixture.join(vertx.close());
  }

  @Test
  void A3_a_standby_exchanges_once_over_loopback_and_closes_what_it_opened() {
    assertThat(PoolFixture.join(NetworkWarmUp.run(vertx))).isEqualTo(NetworkWarmUp.PING.length());
  }

  @Test
  void A3_warm_ups_side_by_side_each_listen_on_a_port_of_their_own() {
    Future<Integer> first = NetworkWarmUp.run(vertx);
    Future<Integer> second = NetworkWarmUp.run(vertx);
    PoolFixture.join(Future.all(first, second));

    assertThat(first.result()).isEqualTo(NetworkWarmUp.PING.length());
    assertThat(second.result()).isEqualTo(NetworkWarmUp.PING.length());
  }

  @Test
  void A3_a_standby_exchanges_on_a_vertx_of_its_own_which_it_closes() {
    assertThat(NetworkWarmUp.runAlone()).isEqualTo(NetworkWarmUp.PING.length());
  }
}
