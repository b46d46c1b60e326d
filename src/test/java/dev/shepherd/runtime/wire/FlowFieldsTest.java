package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        Arguments.of("{\"concurency\":1}", "concurency"),
        Arguments.of("{\"concurrency\":-1}", "concurrency"),
        Arguments.of("{\"concurrency\":1000001}", "concurrency"),
        Arguments.of("{\"concurrency\":1.5}", "concurrency"),
        Arguments.of("{\"concurrency\":\"2\"}", "concurrency"),
        Arguments.of("{\"queueCapacity\":-1}", "queueCapacity"),
        Arguments.of("{\"queueCapacity\":true}", "queueCapacity"),
        Arguments.of("{\"weight\":0}", "weight"),
        Arguments.of("{\"weight\":1001}", "weight"),
        Arguments.of("{\"weight\":[1]}", "weight"),
        Arguments.of("{\"rateLimit\":5}", "rateLimit"),
        Arguments.of("{\"rateLimit\":[]}", "rateLimit"),
        Arguments.of("{\"rateLimit\":{}}", "rateLimit.permits"),
        Arguments.of("{\"rateLimit\":{\"permits\":0}}", "rateLimit.permits"),
        Arguments.of("{\"rateLimit\":{\"permits\":1000001}}", "rateLimit.permits"),
        Arguments.of("{\"rateLimit\":{\"permits\":\"5\"}}", "rateLimit.permits"),
        Arguments.of("{\"rateLimit\":{\"permits\":5,\"perMs\":0}}", "rateLimit.perMs"),
        Arguments.of("{\"rateLimit\":{\"permits\":5,\"perMs\":86400001}}", "rateLimit.perMs"),
        Arguments.of("{\"rateLimit\":{\"permits\":5,\"per\":1}}", "rateLimit.per"),
        Arguments.of("{\"paused\":\"yes\"}", "paused"),
        Arguments.of("{\"paused\":1}", "paused"),
        Arguments.of("{\"group\":\"g\"}", "group"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedSettings")
  void F1_a_malformed_group_setting_is_refused_naming_it(String body, String named) {
    assertThatThrownBy(() -> FlowJson.settings(new JsonObject(body), Set.of()))
        .isInstanceOf(BadRequest.class)
        .satisfies(e -> assertThat(e.getMessage()).matches(Pattern.quote(named) + "[.:].*"));
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
