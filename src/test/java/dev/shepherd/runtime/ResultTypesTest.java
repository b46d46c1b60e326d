package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ResultTypes}, the reading of a result as the type asked for: what JSON's round trip
 * changes is bridged (number types, maps and lists), nothing else, and a mismatch says what was
 * there and what was asked for.
 */
class ResultTypesTest {

  @Test
  void a_result_of_the_type_and_null_are_returned_as_they_are() {
    JsonObject json = new JsonObject();

    assertThat(ResultTypes.as(json, JsonObject.class, "j")).isSameAs(json);
    assertThat(ResultTypes.as("s", CharSequence.class, "j")).isEqualTo("s");
    assertThat(ResultTypes.as(null, String.class, "j")).isNull();
  }

  @Test
  void whole_numbers_become_the_integral_type_asked_for_only_when_they_fit() {
    assertThat(ResultTypes.as(7, Long.class, "j")).isEqualTo(7L);
    assertThat(ResultTypes.as(7L, Integer.class, "j")).isEqualTo(7);
    assertThat(ResultTypes.as(7.0, Integer.class, "j")).isEqualTo(7);
    assertThat(ResultTypes.as(BigInteger.TEN, long.class, "j")).isEqualTo(10L);
    assertThat(ResultTypes.as(100, byte.class, "j")).isEqualTo((byte) 100);

    assertThatThrownBy(() -> ResultTypes.as(1L << 40, Integer.class, "j"))
        .isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ResultTypes.as(0.5, Long.class, "j"))
        .isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ResultTypes.as(300, Byte.class, "j"))
        .isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> ResultTypes.as(BigInteger.TWO.pow(70), Long.class, "j"))
        .isInstanceOf(ClassCastException.class);
  }

  @Test
  void any_number_becomes_a_double_or_a_float() {
    assertThat(ResultTypes.as(3, double.class, "j")).isEqualTo(3.0);
    assertThat(ResultTypes.as(2.5, Float.class, "j")).isEqualTo(2.5f);
  }

  @Test
  void maps_and_lists_become_json_and_json_becomes_maps_and_lists() {
    assertThat(ResultTypes.as(Map.of("a", 1), JsonObject.class, "j"))
        .isEqualTo(new JsonObject().put("a", 1));
    assertThat(ResultTypes.as(List.of(1), JsonArray.class, "j"))
        .isEqualTo(new JsonArray().add(1));
    assertThat(ResultTypes.as(new JsonObject().put("a", 1), Map.class, "j"))
        .isEqualTo(Map.of("a", 1));
    assertThat(ResultTypes.as(new JsonArray().add(1), List.class, "j")).isEqualTo(List.of(1));
  }

  @Test
  void null_is_no_primitive() {
    assertThatThrownBy(() -> ResultTypes.as(null, int.class, "j"))
        .isInstanceOf(ClassCastException.class)
        .hasMessage("job j completed with null, not a int (null is no int)");
  }

  @Test
  void a_mismatch_names_the_job_the_result_type_and_the_type_asked_for() {
    assertThatThrownBy(() -> ResultTypes.as(true, String.class, "j-1"))
        .isInstanceOf(ClassCastException.class)
        .hasMessage("job j-1 completed with a java.lang.Boolean, not a java.lang.String");
    assertThatThrownBy(() -> ResultTypes.as(Map.of(1, 2), JsonObject.class, "j-2"))
        .isInstanceOf(ClassCastException.class)
        .hasMessageContaining("not a io.vertx.core.json.JsonObject");
  }

  record Point(int x, int y) {}

  @Test
  void a_json_object_read_as_a_class_of_yours_needs_jackson_databind_and_says_so() {
    // This build has no Jackson Databind, as a plain Vert.x application has none.
    assertThatThrownBy(() -> ResultTypes.as(new JsonObject().put("x", 1), Point.class, "j"))
        .isInstanceOf(ClassCastException.class)
        .hasMessageContaining("not a " + Point.class.getName())
        .hasMessageContaining("Jackson Databind");
  }
}
