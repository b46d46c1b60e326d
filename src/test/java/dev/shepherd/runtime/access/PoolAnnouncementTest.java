package dev.shepherd.runtime.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.runtime.payload.BadRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a coordinator announces to the cluster about its pool (section 8.4), both ways. */
class PoolAnnouncementTest {

  @Test
  void an_announcement_reads_back_as_itself() {
    PoolAnnouncement running = new PoolAnnouncement("jobs", "shepherd.jobs", "n1", 1_000, false);
    PoolAnnouncement gone = new PoolAnnouncement("jobs", "shepherd.jobs", "n1", 0, true);

    assertThat(PoolAnnouncement.decode(running.toJson())).isEqualTo(running);
    assertThat(PoolAnnouncement.decode(gone.toJson())).isEqualTo(gone);
    assertThat(PoolAnnouncement.decode(running.toJson().encode())).isEqualTo(running);
    assertThat(running.silenceLimitMs()).isEqualTo(PoolAnnouncement.SILENCES * 1_000L);
  }

  @Test
  void A1_a_highly_available_pool_says_so_and_reads_back_as_itself() {
    PoolAnnouncement running =
        new PoolAnnouncement("jobs", "shepherd.jobs", "n1", 1_000, false, true);
    PoolAnnouncement gone = new PoolAnnouncement("jobs", "shepherd.jobs", "n1", 0, true, true);

    assertThat(running.toJson().getBoolean("ha")).isTrue();
    assertThat(PoolAnnouncement.decode(running.toJson())).isEqualTo(running);
    assertThat(PoolAnnouncement.decode(gone.toJson())).isEqualTo(gone);
    assertThat(new PoolAnnouncement("jobs", "shepherd.jobs", "n1", 1_000, false).toJson()
        .containsKey("ha")).isFalse();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "[]|body",
      "{\"prefix\":\"p\",\"node\":\"n\",\"everyMs\":1}|pool",
      "{\"pool\":\"\",\"prefix\":\"p\",\"node\":\"n\",\"everyMs\":1}|pool",
      "{\"pool\":7,\"prefix\":\"p\",\"node\":\"n\",\"everyMs\":1}|pool",
      "{\"pool\":\"j\",\"node\":\"n\",\"everyMs\":1}|prefix",
      "{\"pool\":\"j\",\"prefix\":\"p\",\"everyMs\":1}|node",
      "{\"pool\":\"j\",\"prefix\":\"p\",\"node\":\"n\"}|everyMs",
      "{\"pool\":\"j\",\"prefix\":\"p\",\"node\":\"n\",\"everyMs\":-1}|everyMs",
      "{\"pool\":\"j\",\"prefix\":\"p\",\"node\":\"n\",\"everyMs\":1.5}|everyMs",
      "{\"pool\":\"j\",\"prefix\":\"p\",\"node\":\"n\",\"everyMs\":1,\"gone\":\"yes\"}|gone",
      "{\"pool\":\"j\",\"prefix\":\"p\",\"node\":\"n\",\"everyMs\":1,\"ha\":1}|ha"})
  void what_is_not_an_announcement_is_refused_naming_the_field(String body, String field) {
    Object value = body.startsWith("{") ? new JsonObject(body) : body;

    assertThatThrownBy(() -> PoolAnnouncement.decode(value)).isInstanceOf(BadRequest.class)
        .hasMessageStartingWith(field + ":");
  }
}
