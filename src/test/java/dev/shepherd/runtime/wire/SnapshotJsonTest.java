package dev.shepherd.runtime.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.shepherd.core.Counters;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Phase;
import dev.shepherd.core.PoolSize;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.PoolState;
import dev.shepherd.core.RateLimit;
import dev.shepherd.core.Retirement;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A snapshot read back from the JSON a pool sent (how a node sees a pool coordinated elsewhere):
 * every field survives, fields a pool of another version lacks read as empty, and a snapshot that
 * is not one fails naming the field.
 */
class SnapshotJsonTest {

  static PoolSnapshot sample(long windowMs) {
    return new PoolSnapshot("jobs", PoolState.DRAINING, 3, 100,
        List.of(
            new PoolSnapshot.SlotStatus("w-0", Phase.ASSIGNED, 2, 1,
                List.of(new PoolSnapshot.AssignmentStatus(7, "j7")), 1, 0, null, null, null),
            new PoolSnapshot.SlotStatus("w-1", Phase.BACKING_OFF, -1, 0, List.of(), 3, 2, null,
                1_700_000_000_000L, null),
            new PoolSnapshot.SlotStatus("h1/w-0", Phase.LOST, 1, 0, List.of(), 1, 0, null, null,
                "h1"),
            new PoolSnapshot.SlotStatus("h2/w-0", Phase.RETIRED, 1, 0, List.of(), 1, 0,
                Retirement.HOST_LOST, null, "h2")),
        new Counters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 1, 5, windowMs,
        List.of(new PoolSnapshot.HostStatus("h1", "node-a", HostState.LOST, List.of("h1/w-0"),
            42), new PoolSnapshot.HostStatus("h2", "node-b", HostState.GONE,
            List.of("h2/w-0"), 43)));
  }

  @ParameterizedTest
  @CsvSource({"10000", "9223372036854775807"})
  void every_field_survives_the_trip(long windowMs) {
    PoolSnapshot snapshot = sample(windowMs);

    JsonObject sent = SnapshotJson.encode(snapshot);
    PoolSnapshot read = SnapshotJson.decode(new JsonObject(sent.encode()));

    assertThat(read).isEqualTo(snapshot);
  }

  @Test
  void F1_F6_A1_groups_size_ha_and_a_slot_of_no_room_survive_the_trip() {
    PoolSnapshot s = sample(10_000);
    List<PoolSnapshot.SlotStatus> slots = new java.util.ArrayList<>(s.slots());
    slots.add(new PoolSnapshot.SlotStatus("w-2", Phase.IDLE, 0, 0, List.of(), 1, 0, null, null,
        null));
    PoolSnapshot snapshot = new PoolSnapshot(s.name(), s.state(), s.backlogLength(),
        s.backlogCapacity(), slots, s.counters(), s.restartsInWindow(), s.maxRestarts(),
        s.windowMs(), s.hosts(), new HaStatus(true, true, "node-a", 7), 2, 1_700_000_000_000L, 1,
        true, 1_699_999_999_000L, List.of(new PoolSnapshot.GroupStatus("g", 2, 7, 4, 0, 1,
            new RateLimit(5, 1000), true, 1_767_225_600_000L, null)), 3, new PoolSize(4, 2));

    JsonObject sent = SnapshotJson.encode(snapshot);

    assertThat(sent.getJsonArray("slots").getJsonObject(4).getInteger("capacity")).isZero();
    assertThat(SnapshotJson.decode(new JsonObject(sent.encode()))).isEqualTo(snapshot);
  }

  @Test
  void fields_a_pool_of_another_version_lacks_read_as_empty() {
    PoolSnapshot read = SnapshotJson.decode(new JsonObject().put("name", "jobs")
        .put("state", "RUNNING").put("slots", new JsonArray().add(new JsonObject()
            .put("id", "w-0").put("phase", "IDLE"))));

    assertThat(read.name()).isEqualTo("jobs");
    assertThat(read.hosts()).isEmpty();
    assertThat(read.counters().completed()).isZero();
    assertThat(read.slots()).singleElement().satisfies(slot -> {
      assertThat(slot.capacity()).isEqualTo(-1);
      assertThat(slot.assignments()).isEmpty();
      assertThat(slot.host()).isNull();
    });
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"state\":\"RESTING\"}|state",
      "{\"state\":7}|state",
      "{}|state",
      "{\"state\":\"RUNNING\",\"backlog\":[]}|backlog",
      "{\"state\":\"RUNNING\",\"slots\":{}}|slots",
      "{\"state\":\"RUNNING\",\"slots\":[1]}|slots",
      "{\"state\":\"RUNNING\",\"slots\":[{\"phase\":\"NAPPING\"}]}|phase",
      "{\"state\":\"RUNNING\",\"slots\":[{\"phase\":\"IDLE\",\"inFlight\":\"2\"}]}|inFlight",
      "{\"state\":\"RUNNING\",\"slots\":[{\"phase\":\"RETIRED\",\"retirement\":\"TIRED\"}]}"
          + "|retirement",
      "{\"state\":\"RUNNING\",\"counters\":{\"completed\":true}}|completed",
      "{\"state\":\"RUNNING\",\"hosts\":[{\"state\":\"DOWN\"}]}|state",
      "{\"state\":\"RUNNING\",\"budget\":{\"windowMs\":\"long\"}}|windowMs"})
  void a_snapshot_that_is_not_one_fails_naming_the_field(String json, String field) {
    assertThatThrownBy(() -> SnapshotJson.decode(new JsonObject(json)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(field + ":");
  }
}
