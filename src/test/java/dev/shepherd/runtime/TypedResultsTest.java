package dev.shepherd.runtime;

import static dev.shepherd.runtime.PoolFixture.failure;
import static dev.shepherd.runtime.PoolFixture.join;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PoolClient#submit(JobRequest, Class)}: a result comes back as the type the submitter
 * asks for, without a cast, in this JVM (the worker's own object) and over the bus (the JSON it
 * was sent as, read back as that type); one that is not of that type fails the future with a
 * {@link ClassCastException} naming both. The worker answers with its payload.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TypedResultsTest {
  private static final String POOL = "typed";

  /** A result that is no JSON value: in this JVM it stays itself. */
  record Greeting(String text) {}

  static Stream<Arguments> clients() {
    BiFunction<Vertx, String, PoolClient> inJvm = PoolClient::create;
    BiFunction<Vertx, String, PoolClient> overBus = (vertx, pool) ->
        PoolClient.create(vertx, "bus-view-of-" + pool, "shepherd." + pool, 10_000);
    return Stream.of(Arguments.of(Named.of("in-JVM", inJvm)),
        Arguments.of(Named.of("over the bus", overBus)));
  }

  /** A pool whose worker answers each job with its payload, or with a {@link Greeting}. */
  private static PoolClient echoPool(Vertx vertx, BiFunction<Vertx, String, PoolClient> client) {
    JsonObject config = PoolFixture.demoPool(POOL, 1);
    config.getJsonObject("worker").remove("class");
    join(vertx.deployVerticle(new PoolVerticle(() -> job -> Future.succeededFuture(
            "greet".equals(job.payload()) ? new Greeting("hi") : job.payload())),
        new DeploymentOptions().setConfig(config)));
    return client.apply(vertx, POOL);
  }

  @ParameterizedTest
  @MethodSource("clients")
  void a_json_object_result_comes_back_as_a_JsonObject_without_a_cast(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = echoPool(vertx, client);

    JsonObject result = join(jobs.submit(new JsonObject().put("n", 1), JsonObject.class));

    assertThat(result.getInteger("n")).isEqualTo(1);
  }

  @ParameterizedTest
  @MethodSource("clients")
  void a_whole_number_comes_back_as_the_number_type_asked_for(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = echoPool(vertx, client);

    Long asLong = join(jobs.submit(7, Long.class));
    Integer asInt = join(jobs.submit(7L, int.class));
    Double asDouble = join(jobs.submit(7, Double.class));

    assertThat(asLong).isEqualTo(7L);
    assertThat(asInt).isEqualTo(7);
    assertThat(asDouble).isEqualTo(7.0);
  }

  @ParameterizedTest
  @MethodSource("clients")
  void a_map_or_list_result_comes_back_as_JsonObject_or_JsonArray_and_back(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = echoPool(vertx, client);

    JsonObject fromMap = join(jobs.submit(JobRequest.of(Map.of("a", 1)), JsonObject.class));
    JsonArray fromList = join(jobs.submit(JobRequest.of(List.of(1, 2)), JsonArray.class));
    @SuppressWarnings("rawtypes")
    Map asMap = join(jobs.submit(new JsonObject().put("b", 2), Map.class));

    assertThat(fromMap).isEqualTo(new JsonObject().put("a", 1));
    assertThat(fromList).isEqualTo(new JsonArray().add(1).add(2));
    assertThat(asMap).containsEntry("b", 2);
  }

  @ParameterizedTest
  @MethodSource("clients")
  void a_result_of_another_type_fails_with_a_ClassCastException_naming_the_job_and_both_types(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = echoPool(vertx, client);

    Throwable wrong = failure(jobs.submit(JobRequest.of("text").withJob("j-text"),
        Integer.class));
    Throwable fraction = failure(jobs.submit(2.5, Long.class));

    assertThat(wrong).isInstanceOf(ClassCastException.class)
        .hasMessage("job j-text completed with a java.lang.String, not a java.lang.Integer");
    assertThat(fraction).isInstanceOf(ClassCastException.class)
        .hasMessageContaining("not a java.lang.Long");
  }

  @Test
  void in_the_pools_jvm_the_result_is_the_workers_own_object(Vertx vertx) {
    PoolClient jobs = echoPool(vertx, PoolClient::create);

    Greeting greeting = join(jobs.submit("greet", Greeting.class));

    assertThat(greeting).isEqualTo(new Greeting("hi"));
  }

  @Test
  void over_the_bus_an_object_no_json_can_carry_arrives_as_its_string_form(Vertx vertx) {
    PoolClient jobs = echoPool(vertx, (v, pool) ->
        PoolClient.create(v, "bus-view-of-" + pool, "shepherd." + pool, 10_000));

    String sent = join(jobs.submit("greet", String.class));

    assertThat(sent).isEqualTo(new Greeting("hi").toString());
  }

  @ParameterizedTest
  @MethodSource("clients")
  void the_untyped_submit_still_gives_the_result_as_it_is(
      BiFunction<Vertx, String, PoolClient> client, Vertx vertx) {
    PoolClient jobs = echoPool(vertx, client);

    Object result = join(jobs.submit(new JsonObject().put("n", 1)));

    assertThat(result).isEqualTo(new JsonObject().put("n", 1));
  }
}
