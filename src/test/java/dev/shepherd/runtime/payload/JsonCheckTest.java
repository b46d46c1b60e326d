package dev.shepherd.runtime.payload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The walk over decoded payloads and results ({@link JsonCheck}): bounded by depth, it tells a
 * value that can be written as JSON from one that cannot (too deep, a cycle, a type the codec
 * refuses) and estimates a payload's heap.
 */
class JsonCheckTest {

  static Object nestedArrays(int depth) {
    Object value = 1;
    for (int i = 0; i < depth; i++) {
      value = new JsonArray().add(value);
    }
    return value;
  }

  @Nested
  class Payloads {

    @Test
    void a_payload_at_the_limit_passes_and_one_level_deeper_is_refused_naming_payload() {
      assertThat(JsonCheck.payload(nestedArrays(64), 64)).isPositive();
      assertThatThrownBy(() -> JsonCheck.payload(nestedArrays(65), 64))
          .isInstanceOf(BadRequest.class)
          .hasMessage("payload: nested more than 64 levels deep (the pool's maxPayloadDepth)");
    }

    @Test
    void a_payload_that_contains_itself_is_refused_as_a_cycle() {
      JsonObject loop = new JsonObject();
      loop.put("self", loop);
      Map<String, Object> map = new HashMap<>();
      map.put("list", List.of(map));
      for (Object payload : List.of(loop, map)) {
        assertThatThrownBy(() -> JsonCheck.payload(payload, 64))
            .isInstanceOf(BadRequest.class)
            .hasMessageStartingWith("payload")
            .hasMessageContaining("contains itself (a cycle)");
      }
    }

    @Test
    void values_json_cannot_carry_are_refused_inside_json_objects_and_converted_elsewhere() {
      assertThatThrownBy(() -> JsonCheck.payload(new JsonObject().put("a",
          new JsonArray().add(new Object())), 64))
          .hasMessageStartingWith("payload.a[0]: java.lang.Object is not a JSON value");
      assertThatThrownBy(() -> JsonCheck.payload(new JsonObject().put("m", Map.of(1, 2)), 64))
          .hasMessageStartingWith("payload.m: a map key that is not a string");
      // At the top and in plain maps and lists, other objects travel as their string form.
      assertThat(JsonCheck.payload(Map.of(1, new Object()), 64)).isPositive();
      assertThat(JsonCheck.payload(new Object(), 64)).isPositive();
      assertThat(JsonCheck.payload(new JsonObject().put("b", new byte[3]).put("e",
          Thread.State.NEW).put("buf", Buffer.buffer("x")), 64)).isPositive();
      assertThatThrownBy(() -> JsonCheck.payload(new JsonObject().put("set", Set.of()), 64))
          .hasMessageStartingWith("payload.set: java.util.");
    }

    @Test
    void a_raw_payload_counts_its_length() {
      assertThat(JsonCheck.payload(new RawJson("[1,2]".getBytes()), 1)).isEqualTo(5);
    }

    @Test
    void the_estimate_grows_with_the_tree_not_with_its_text() {
      JsonArray empties = new JsonArray();
      for (int i = 0; i < 1000; i++) {
        empties.add(new JsonObject());
      }
      long tree = JsonCheck.payload(empties, 64);
      assertThat(tree).isBetween(70_000L, 90_000L);

      assertThat(JsonCheck.payload("x".repeat(1000), 64)).isEqualTo(1040);
      assertThat(JsonCheck.payload("é".repeat(1000), 64)).isEqualTo(1040);
      assertThat(JsonCheck.payload("✓".repeat(1000), 64)).isEqualTo(2040);
    }
  }

  @Nested
  class Results {

    @Test
    void json_values_maps_lists_and_objects_at_the_top_can_be_answered() {
      assertThat(JsonCheck.resultProblem(null)).isNull();
      assertThat(JsonCheck.resultProblem(new JsonObject().put("a", List.of(1, Map.of("b", 2)))))
          .isNull();
      assertThat(JsonCheck.resultProblem(new ArrayList<>(List.of(new Object())))).isNull();
      assertThat(JsonCheck.resultProblem(nestedArrays(JsonCheck.MAX_RESULT_DEPTH))).isNull();
    }

    @Test
    void too_deep_cyclic_and_unwritable_results_are_named() {
      assertThat(JsonCheck.resultProblem(nestedArrays(1500)))
          .isEqualTo("result: nested more than 900 levels deep");
      Map<String, Object> cyclic = new HashMap<>();
      cyclic.put("me", cyclic);
      assertThat(JsonCheck.resultProblem(cyclic)).isEqualTo(
          "result.me.me.me.me.me.me.me.me.me.me.me.me…: contains itself (a cycle)");
      assertThat(JsonCheck.resultProblem(new JsonObject().put("thread", new Thread(() -> { }))))
          .isEqualTo("result.thread: java.lang.Thread is not a JSON value");
    }
  }
}
