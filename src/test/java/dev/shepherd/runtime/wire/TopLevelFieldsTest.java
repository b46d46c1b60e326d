package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Telling a JSON object's form by its top-level field names, from the bytes. */
class TopLevelFieldsTest {
  private static final Set<String> BATCH = Set.of("host", "items");

  private static Boolean names(String json) {
    return TopLevelFields.namesAny(Buffer.buffer(json), BATCH);
  }

  @Test
  void a_named_field_at_the_top_level_answers_true_wherever_it_is() {
    assertThat(names("{\"host\":\"h1\",\"items\":[]}")).isTrue();
    assertThat(names("{\"job\":\"j\",\"result\":{\"a\":[1,{\"b\":2}]},\"items\":[]}")).isTrue();
  }

  @Test
  void the_same_name_nested_deeper_is_not_the_top_level_and_answers_false() {
    assertThat(names("{\"job\":\"j\",\"result\":{\"host\":\"h1\",\"items\":[1]}}")).isFalse();
    assertThat(names("{}")).isFalse();
  }

  @Test
  void what_is_no_json_object_or_not_valid_json_is_left_to_the_decoder() {
    assertThat(names("[1,2]")).isNull();
    assertThat(names("\"host\"")).isNull();
    assertThat(names("{\"job\":")).isNull();
    assertThat(names("{\"job\":1} trailing")).isNull();
    assertThat(names("")).isNull();
  }
}
