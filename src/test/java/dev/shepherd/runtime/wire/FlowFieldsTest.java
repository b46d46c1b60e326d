package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.GroupDefaults;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.RateLimit;
import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Section 11's request fields as every surface decodes them: a submit's {@code group} (F1) and
 * {@code priority} (F3) in each form a body arrives in and as a node sends it on, an operator's
 * group settings and pause target (F1, F2, F4, F5), and every malformed value refused as a
 * {@link BadRequest} naming the field.
 */
class FlowFieldsTest {

  static Stream<Function<String, Object>> forms() {
    return Stream.of(JsonObject::new, text -> text, Buffer::buffer);
  }

  private static Requests.Submit decode(Object body) {
    return RequestDecoder.submit(body, 64);
  }

  @Nested
  class Submits {

    @ParameterizedTest
    @MethodSource("dev.shepherd.runtime.wire.FlowFieldsTest#forms")
    void F1_F3_group_and_priority_are_read(Function<String, Object> form) {
      Requests.Submit s = decode(form.apply(
          "{\"payload\":1,\"group\":\"tenant-7\",\"priority\":0}"));
      assertThat(s.group()).isEqualTo("tenant-7");
      assertThat(s.priority()).isZero();
    }

    @ParameterizedTest
    @MethodSource("dev.shepherd.runtime.wire.FlowFieldsTest#forms")
    void F1_F3_absent_or_null_is_no_group_at_the_default_priority(Function<String, Object> form) {
      for (String body : new String[] {"{\"payload\":1}",
          "{\"payload\":1,\"group\":null,\"priority\":null}"}) {
        Requests.Submit s = decode(form.apply(body));
        assertThat(s.group()).isNull();
        assertThat(s.priority()).isEqualTo(Requests.Submit.DEFAULT_PRIORITY).isEqualTo(5);
      }
    }

    @ParameterizedTest
    @MethodSource("dev.shepherd.runtime.wire.FlowFieldsTest#forms")
    void F1_F3_a_submit_sent_on_to_the_pool_carries_its_group_and_priority(
        Function<String, Object> form) {
      Requests.Submit arrived = decode(form.apply(
          "{\"job\":\"j\",\"payload\":{\"x\":1},\"group\":\"g\",\"priority\":9}"));
      Requests.Submit read = decode(SubmitBody.encode(arrived, null));
      assertThat(read.group()).isEqualTo("g");
      assertThat(read.priority()).isEqualTo(9);
      assertThat(read.withJob("k").group()).isEqualTo("g");
      assertThat(read.withJob("k").priority()).isEqualTo(9);
    }

    @Test
    void F3_the_default_priority_and_no_group_are_sent_as_no_field() {
      JsonObject sent = RequestDecoder.object(
          SubmitBody.encode(decode("{\"payload\":1,\"priority\":5}"), null));
      assertThat(sent.fieldNames()).containsExactly("payload");
    }
  }

  static Stream<Arguments> malformedSubmits() {
    return Stream.of(
        Arguments.of("group empty", "\"group\":\"\"", "group"),
        Arguments.of("group too long", "\"group\":\"" + "g".repeat(257) + "\"", "group"),
        Arguments.of("group a number", "\"group\":7", "group"),
        Arguments.of("group a boolean", "\"group\":true", "group"),
        Arguments.of("group an object", "\"group\":{}", "group"),
        Arguments.of("group an array", "\"group\":[\"a\"]", "group"),
        Arguments.of("priority negative", "\"priority\":-1", "priority"),
        Arguments.of("priority 10", "\"priority\":10", "priority"),
        Arguments.of("priority huge", "\"priority\":100000000000000000000", "priority"),
        Arguments.of("priority fractional", "\"priority\":1.5", "priority"),
        Arguments.of("priority text", "\"priority\":\"high\"", "priority"),
        Arguments.of("priority boolean", "\"priority\":false", "priority"),
        Arguments.of("priority object", "\"priority\":{}", "priority"),
        Arguments.of("priority twice", "\"priority\":1,\"priority\":2", "priority"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedSubmits")
  void F1_F3_a_malformed_field_is_refused_naming_it_in_every_form(String name, String field,
      String named) {
    String body = "{\"payload\":1," + field + "}";
    forms().forEach(form -> {
      Object input = form.apply(body);
      if (name.endsWith("twice") && input instanceof JsonObject) {
        return; // a decoded object holds a field once
      }
      assertThatThrownBy(() -> decode(input)).as(name + " as " + input.getClass().getSimpleName())
          .isInstanceOf(BadRequest.class)
          .satisfies(e -> assertThat(e.getMessage()).matches(Pattern.quote(named) + "[.:].*"));
    });
  }

  @Nested
  class OperatorBodies {

    @Test
    void F1_F2_F4_F5_every_group_setting_is_read_and_absent_ones_are_null() {
      assertThat(FlowJson.settings(new JsonObject("{\"concurrency\":2,\"queueCapacity\":0,"
          + "\"weight\":3,\"rateLimit\":{\"permits\":5,\"perMs\":2000},\"paused\":true}"), Set.of()))
          .isEqualTo(new GroupSettings(2, 0, 3, new RateLimit(5, 2000), true));
      assertThat(FlowJson.settings(new JsonObject("{\"rateLimit\":{\"permits\":5}}"), Set.of()))
          .isEqualTo(new GroupSettings(null, null, null, new RateLimit(5, 1000), null));
      assertThat(FlowJson.settings(new JsonObject("{\"concurrency\":null}"), Set.of()))
          .isEqualTo(GroupSettings.INHERIT);
    }

    @Test
    void F1_a_partial_change_keeps_the_fields_it_does_not_give() {
      GroupSettings current = new GroupSettings(2, 10, 3, new RateLimit(5, 1000), null);
      assertThat(FlowJson.merge(current, new GroupSettings(null, null, null, null, true)))
          .isEqualTo(new GroupSettings(2, 10, 3, new RateLimit(5, 1000), true));
      assertThat(FlowJson.merge(current, new GroupSettings(4, null, null, null, null)))
          .isEqualTo(new GroupSettings(4, 10, 3, new RateLimit(5, 1000), null));
      assertThat(FlowJson.merge(null, new GroupSettings(4, null, null, null, false)))
          .isEqualTo(new GroupSettings(4, null, null, null, false));
    }

    @Test
    void F1_the_bus_form_names_its_group() {
      Requests.SetGroup set = RequestDecoder.setGroup(
          new JsonObject("{\"group\":\"g\",\"concurrency\":1}"));
      assertThat(set).isEqualTo(new Requests.SetGroup("g",
          new GroupSettings(1, null, null, null, null)));
      assertThat(RequestDecoder.pauseTarget(null)).isNull();
      assertThat(RequestDecoder.pauseTarget(new JsonObject())).isNull();
      assertThat(RequestDecoder.pauseTarget(new JsonObject().put("group", "g"))).isEqualTo("g");
      assertThat(RequestDecoder.groupLookup(new JsonObject().put("group", "g")).group())
          .isEqualTo("g");
    }

    @Test
    void F1_a_group_status_survives_its_json() {
      dev.shepherd.core.PoolSnapshot.GroupStatus g = new dev.shepherd.core.PoolSnapshot
          .GroupStatus("g", 2, 7, 4, 0, 1, new RateLimit(5, 1000), true, 1_767_225_600_000L,
          null);
      assertThat(FlowJson.decodeStatus(FlowJson.encode(g))).isEqualTo(g);
    }
  }

  static Stream<Arguments> malformedSettings() {
    return Stream.of(
        Arguments.of("{\"concurency\":1}", "concurency", null),
        Arguments.of("{\"concurrency\":-1}", "concurrency", "-1"),
        Arguments.of("{\"concurrency\":1000001}", "concurrency", "1000001"),
        Arguments.of("{\"concurrency\":1.5}", "concurrency", "a number 1.5"),
        Arguments.of("{\"concurrency\":\"2\"}", "concurrency", "a string"),
        Arguments.of("{\"queueCapacity\":-1}", "queueCapacity", "-1"),
        Arguments.of("{\"queueCapacity\":true}", "queueCapacity", "a boolean"),
        Arguments.of("{\"weight\":0}", "weight", "0"),
        Arguments.of("{\"weight\":1001}", "weight", "1001"),
        Arguments.of("{\"weight\":[1]}", "weight", "an array"),
        Arguments.of("{\"rateLimit\":5}", "rateLimit", "a number 5"),
        Arguments.of("{\"rateLimit\":[]}", "rateLimit", "an array"),
        Arguments.of("{\"rateLimit\":{}}", "rateLimit.permits", null),
        Arguments.of("{\"rateLimit\":{\"permits\":0}}", "rateLimit.permits", "0"),
        Arguments.of("{\"rateLimit\":{\"permits\":1000001}}", "rateLimit.permits", "1000001"),
        Arguments.of("{\"rateLimit\":{\"permits\":\"5\"}}", "rateLimit.permits", "a string"),
        Arguments.of("{\"rateLimit\":{\"permits\":5,\"perMs\":0}}", "rateLimit.perMs", "0"),
        Arguments.of("{\"rateLimit\":{\"permits\":5,\"perMs\":86400001}}", "rateLimit.perMs",
            "86400001"),
        Arguments.of("{\"rateLimit\":{\"permits\":5,\"per\":1}}", "rateLimit.per", null),
        Arguments.of("{\"paused\":\"yes\"}", "paused", "a string"),
        Arguments.of("{\"paused\":1}", "paused", "a number 1"),
        Arguments.of("{\"paused\":{}}", "paused", "an object"),
        Arguments.of("{\"group\":\"g\"}", "group", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedSettings")
  void F1_a_malformed_group_setting_is_refused_naming_it(String body, String named, String was) {
    assertThatThrownBy(() -> FlowJson.settings(new JsonObject(body), Set.of()))
        .isInstanceOf(BadRequest.class)
        .satisfies(e -> assertThat(e.getMessage()).matches(Pattern.quote(named) + "[.:].*"))
        .satisfies(e -> assertThat(e.getMessage())
            .endsWith(was == null ? "" : "(was " + was + ")"));
  }

  @Test
  void F1_F4_a_bound_says_its_range_and_what_0_means() {
    assertThatThrownBy(() -> FlowJson.settings(new JsonObject("{\"concurrency\":-1}"), Set.of()))
        .hasMessage("concurrency: must be between 0 and 1000000 (0 = unlimited) (was -1)");
    assertThatThrownBy(() -> FlowJson.settings(new JsonObject("{\"weight\":0}"), Set.of()))
        .hasMessage("weight: must be between 1 and 1000 (was 0)");
  }

  @Test
  void F1_F4_every_bound_is_inclusive() {
    assertThat(FlowJson.settings(new JsonObject().put("concurrency", FlowJson.MAX_CONCURRENCY)
        .put("queueCapacity", FlowJson.MAX_QUEUE).put("weight", GroupDefaults.MAX_WEIGHT)
        .put("rateLimit", new JsonObject().put("permits", RateLimit.MAX_PERMITS)
            .put("perMs", RateLimit.MAX_PER_MS)), Set.of()))
        .isEqualTo(new GroupSettings(FlowJson.MAX_CONCURRENCY, FlowJson.MAX_QUEUE,
            GroupDefaults.MAX_WEIGHT, new RateLimit(RateLimit.MAX_PERMITS, RateLimit.MAX_PER_MS),
            null));
    assertThat(FlowJson.settings(new JsonObject().put("concurrency", 0).put("queueCapacity", 0)
        .put("weight", 1).put("rateLimit", new JsonObject().put("permits", 1).put("perMs", 1)),
        Set.of())).isEqualTo(new GroupSettings(0, 0, 1, new RateLimit(1, 1), null));
  }

  @Test
  void F1_a_group_override_is_written_as_the_fields_it_sets_and_reads_back() {
    GroupSettings full = new GroupSettings(2, 0, 3, new RateLimit(5, 2000), false);
    assertThat(FlowJson.settings(new JsonObject(FlowJson.encode(full).encode()), Set.of()))
        .isEqualTo(full);
    assertThat(FlowJson.encode(full).fieldNames()).containsExactly("concurrency",
        "queueCapacity", "weight", "rateLimit", "paused");
    assertThat(FlowJson.encode(GroupSettings.INHERIT)).isEqualTo(new JsonObject());
    assertThat(FlowJson.encode(new GroupSettings(null, null, null, null, true)))
        .isEqualTo(new JsonObject().put("paused", true));
  }

  static Stream<Arguments> malformedBusBodies() {
    return Stream.of(
        Arguments.of("pause", "[]", "body"),
        Arguments.of("pause", "{\"group\":\"\"}", "group"),
        Arguments.of("pause", "{\"group\":3}", "group"),
        Arguments.of("pause", "{\"pool\":\"x\"}", "pool"),
        Arguments.of("set", "{}", "group"),
        Arguments.of("set", "{\"group\":\"" + "g".repeat(257) + "\"}", "group"),
        Arguments.of("set", "{\"group\":\"g\",\"weight\":0}", "weight"),
        Arguments.of("set", "{\"group\":\"g\",\"size\":3}", "size"),
        Arguments.of("get", "{}", "group"),
        Arguments.of("get", "{\"group\":\"g\",\"x\":1}", "x"),
        Arguments.of("get", "\"g\"", "body"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("malformedBusBodies")
  void F1_F5_a_malformed_operator_message_is_refused_naming_the_field(String kind, String body,
      String named) {
    Object input = Buffer.buffer(body);
    assertThatThrownBy(() -> {
      switch (kind) {
        case "pause" -> RequestDecoder.pauseTarget(input);
        case "set" -> RequestDecoder.setGroup(input);
        default -> RequestDecoder.groupLookup(input);
      }
    }).isInstanceOf(BadRequest.class)
        .satisfies(e -> assertThat(e.getMessage()).matches(Pattern.quote(named) + "[.:].*"));
  }
}
