package dev.shepherd.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link DriverLoop}: a driver's context on a loop no deployment uses, what shares a driver's
 * loop, and none when every loop is taken.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DriverLoopTest {
  private Vertx vertx;

  /** A verticle that remembers its context. */
  static final class Probe extends AbstractVerticle {
    volatile Context started;

    @Override
    public void start() {
      started = context;
    }
  }

  private List<Probe> deploy(int loops, int verticles) {
    vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
    List<Probe> probes = new ArrayList<>();
    for (int i = 0; i < verticles; i++) {
      Probe probe = new Probe();
      vertx.deployVerticle(probe).await();
      probes.add(probe);
    }
    return probes;
  }

  @AfterEach
  void close() {
    if (vertx != null) {
      vertx.close().await();
    }
  }

  @Test
  void own_is_on_a_loop_that_no_deployment_uses_and_shares_it_with_nothing() {
    List<Probe> probes = deploy(8, 5);

    Context own = DriverLoop.own(vertx);

    assertThat(own).isNotNull();
    assertThat(probes).noneMatch(p -> ((ContextInternal) p.started).nettyEventLoop()
        == ((ContextInternal) own).nettyEventLoop());
    assertThat(DriverLoop.sharedWith(vertx, own)).isEmpty();
  }

  @Test
  void sharedWith_names_the_deployments_on_the_drivers_loop() {
    List<Probe> probes = deploy(2, 3);

    Context driver = probes.get(0).started;
    long onDriversLoop = probes.stream().filter(p -> ((ContextInternal) p.started).nettyEventLoop()
        == ((ContextInternal) driver).nettyEventLoop()).count();

    List<String> sharing = DriverLoop.sharedWith(vertx, driver);

    // The driver's own verticle is among them.
    assertThat(onDriversLoop).isGreaterThanOrEqualTo(1);
    assertThat(sharing).hasSize((int) onDriversLoop)
        .allMatch(name -> name.endsWith("DriverLoopTest$Probe"));
  }

  @Test
  void own_is_null_when_every_loop_runs_a_deployment() {
    deploy(2, 2);

    assertThat(DriverLoop.own(vertx)).isNull();
  }
}
