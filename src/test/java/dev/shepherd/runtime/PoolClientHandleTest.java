package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.demoPool;
import static dev.shepherd.runtime.PoolFixture.deployReady;
import static dev.shepherd.runtime.PoolFixture.echo;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.runtime.access.PoolHandle;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@link PoolClient} keeps the handle it found until a pool of this JVM is deployed or
 * undeployed: it reaches a pool deployed after it was made in the JVM, the bus once that pool is
 * gone, and the new coordinator of a pool deployed again.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolClientHandleTest {
  private static final String POOL = "handles";

  @Test
  void a_client_follows_its_pool_in_and_out_of_this_jvm(Vertx vertx) {
    PoolClient client = PoolClient.create(vertx, POOL);
    PoolHandle before = client.handle();
    assertThat(before.local()).isFalse();
    assertThat(client.handle()).isSameAs(before);

    String first = deployReady(vertx, demoPool(POOL, 1));
    PoolHandle local = client.handle();
    assertThat(local.local()).isTrue();
    assertThat(client.handle()).isSameAs(local);
    assertThat(join(client.submit(echo("one")))).isEqualTo(new JsonObject()
        .put("worker", "w-0").put("incarnation", 1).put("echo", "one"));

    vertx.undeploy(first).await();
    assertThat(client.handle().local()).isFalse();

    deployReady(vertx, demoPool(POOL, 1));
    PoolHandle again = client.handle();
    assertThat(again.local()).isTrue();
    assertThat(again).isNotSameAs(local);
    assertThat(join(client.submit(echo("two")))).isEqualTo(new JsonObject()
        .put("worker", "w-0").put("incarnation", 1).put("echo", "two"));
  }
}
