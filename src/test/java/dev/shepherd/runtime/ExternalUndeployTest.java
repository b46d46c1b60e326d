package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.awaitStatus;
import static dev.shepherd.runtime.PoolFixture.counter;
import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An incarnation undeployed by someone other than its slot (as Vert.x does when it closes) is
 * neither a crash nor a normal exit: the pool takes it as its own end and stops gracefully (P16),
 * replacing nothing.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExternalUndeployTest {

  @Test
  void P16_an_incarnation_undeployed_from_outside_stops_the_pool_and_is_not_replaced(
      Vertx vertx) {
    Set<String> before = new HashSet<>(vertx.deploymentIDs());
    String pool = deployReady(vertx, demoPool("outside", 1));
    Set<String> incarnations = new HashSet<>(vertx.deploymentIDs());
    incarnations.removeAll(before);
    incarnations.remove(pool);
    assertThat(incarnations).hasSize(1);

    join(vertx.undeploy(incarnations.iterator().next()));

    var status = awaitStatus(vertx, "outside", s -> "STOPPED".equals(s.getString("state")));
    assertThat(counter(status, "restarts")).isZero();
  }
}
