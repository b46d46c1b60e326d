package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.shepherd.core.Notice;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Events on the pool's events address ({@link EventJson}): a resize and a removed slot (F6) say
 * what changed, and an outside text is clipped only past {@link EventJson#MAX_TEXT} characters.
 */
class EventJsonTest {

  @Test
  void F6_a_resize_says_the_new_size_and_the_slots_added_and_draining() {
    assertThat(EventJson.notice("jobs", new Notice.Resized(3, 2, List.of("w-2"), List.of("w-5")),
        10L)).isEqualTo(new JsonObject().put("pool", "jobs").put("at", 10L)
            .put("type", "resized").put("instances", 3).put("maxConcurrency", 2)
            .put("added", new JsonArray().add("w-2")).put("draining", new JsonArray().add("w-5")));
  }

  @Test
  void F6_a_removed_slot_says_which_incarnation_went() {
    assertThat(EventJson.notice("jobs", new Notice.SlotRemoved("w-5", 4), 10L))
        .isEqualTo(new JsonObject().put("pool", "jobs").put("at", 10L).put("type", "removed")
            .put("worker", "w-5").put("incarnation", 4));
  }

  @Test
  void an_outside_text_is_clipped_only_past_its_limit() {
    String limit = "x".repeat(EventJson.MAX_TEXT);

    assertThat(EventJson.clip(limit)).isSameAs(limit);
    assertThat(EventJson.clip(limit + "y")).isEqualTo(limit + "…(" + (EventJson.MAX_TEXT + 1)
        + " chars)");
    assertThat(EventJson.clip(null)).isNull();
  }
}
