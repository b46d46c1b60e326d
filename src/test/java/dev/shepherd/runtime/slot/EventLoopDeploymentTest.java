package dev.shepherd.runtime.slot;

import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoop;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A verticle deployed on a given event loop ({@link EventLoopDeployment}) lives there from start
 * to stop, and is otherwise a Vert.x deployment like any: listed, undeployed by id or by closing
 * Vert.x, its context's close hooks run, a failed start leaves nothing deployed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EventLoopDeploymentTest {
  private Vertx vertx;
  private ContextInternal home;
  private final List<String> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    home = ((VertxInternal) vertx).createEventLoopContext();
  }

  @AfterEach
  void stop() {
    if (vertx != null) {
      join(vertx.close());
    }
  }

  /** Records where its start and stop ran, and whether its context's close hook ran. */
  private final class Recording extends VerticleBase {
    private final boolean failStart;

    Recording(boolean failStart) {
      this.failStart = failStart;
    }

    @Override
    public Future<?> start() {
      events.add("start on " + Thread.currentThread().getName() + " with "
          + config().getString("say"));
      ((ContextInternal) context).addCloseHook(completion -> {
        events.add("close hook");
        completion.succeed();
      });
      return failStart ? Future.failedFuture(new IllegalStateException("no")) : Future.succeededFuture();
    }

    @Override
    public Future<?> stop() {
      events.add("stop on " + Thread.currentThread().getName());
      return Future.succeededFuture();
    }
  }

  private String deploy(EventLoop loop, boolean failStart) {
    DeploymentOptions options = new DeploymentOptions()
        .setConfig(new JsonObject().put("say", "hi"));
    return join(home.<String>future(p -> home.runOnContext(v ->
        EventLoopDeployment.deploy(vertx, new Recording(failStart), options, loop)
            .onComplete(p))));
  }

  private String threadOf(EventLoop loop) {
    return join(home.<String>future(p -> loop.execute(
        () -> p.complete(Thread.currentThread().getName()))));
  }

  @Test
  void it_starts_and_stops_on_the_given_loop_and_undeploys_by_id() {
    EventLoop loop = home.nettyEventLoop();
    String thread = threadOf(loop);

    String id = deploy(loop, false);

    assertThat(vertx.deploymentIDs()).contains(id);
    join(vertx.undeploy(id));
    assertThat(vertx.deploymentIDs()).doesNotContain(id);
    assertThat(events).containsExactly("start on " + thread + " with hi", "stop on " + thread,
        "close hook");
  }

  @Test
  void closing_vertx_stops_it() {
    EventLoop loop = home.nettyEventLoop();
    String thread = threadOf(loop);
    deploy(loop, false);

    join(vertx.close());
    vertx = null;

    assertThat(events).containsExactly("start on " + thread + " with hi", "stop on " + thread,
        "close hook");
  }

  @Test
  void a_failed_start_fails_the_deployment_and_leaves_nothing_deployed() {
    int before = vertx.deploymentIDs().size();

    assertThatThrownBy(() -> deploy(home.nettyEventLoop(), true)).hasMessageContaining("no");

    assertThat(vertx.deploymentIDs()).hasSize(before);
    assertThat(events).contains("close hook").noneMatch(e -> e.startsWith("stop"));
  }
}
