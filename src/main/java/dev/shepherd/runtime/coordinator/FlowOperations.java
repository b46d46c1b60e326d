package dev.shepherd.runtime.coordinator;

import dev.shepherd.core.GroupDefaults;
import dev.shepherd.core.GroupSettings;
import dev.shepherd.core.PoolEvent;
import dev.shepherd.core.PoolSnapshot;
import dev.shepherd.core.Transition;
import dev.shepherd.runtime.PoolErrorException;
import dev.shepherd.runtime.wire.FlowJson;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An operator's flow controls on one pool (section 11, F1-F5 in docs/rules.md), on the
 * coordinator's context: pause and resume the pool or a group, set or drop a group's limits, and
 * read a group. Each is one core event; the answer is the JSON of what it changed, its times in
 * wall time. A group's settings given in part are merged onto the override in force: the one an
 * operator set on this coordinator, else the configured one.
 */
public final class FlowOperations {
  /** What {@link PoolObserver#onFlowChange} is told. */
  public static final String PAUSED = "paused";
  public static final String RESUMED = "resumed";
  public static final String GROUP = "group";
  public static final String GROUP_RESET = "groupReset";

  private final Coordinator coordinator;

  FlowOperations(Coordinator coordinator) {
    this.coordinator = coordinator;
  }

  /** Pauses {@code group}, or the pool when null (F5 in docs/rules.md). */
  public Future<JsonObject> pause(String group) {
    return step(new PoolEvent.Pause(group, coordinator.now()), group, PAUSED);
  }

  /** Resumes {@code group}, or the pool when null (F5 in docs/rules.md): dispatch runs at once. */
  public Future<JsonObject> resume(String group) {
    return step(new PoolEvent.Resume(group, coordinator.now()), group, RESUMED);
  }

  /**
   * Sets the fields {@code change} gives of {@code group}'s override (F1, F2, F4, F5 in
   * docs/rules.md); null drops the run-time override.
   */
  public Future<JsonObject> setGroup(String group, GroupSettings change) {
    GroupSettings settings = null;
    if (change != null) {
      // The override in force (an operator's, journaled, so it survives a failover; else the
      // configured one), without its pause: a pause is an action, not a setting to repeat.
      GroupSettings current = coordinator.pool().groupOverride(group);
      if (current != null) {
        current = new GroupSettings(current.concurrency(), current.queueCapacity(),
            current.weight(), current.rateLimit(), null);
      }
      settings = FlowJson.merge(current, change);
    }
    return step(new PoolEvent.SetGroup(group, settings, coordinator.now()), group,
        settings == null ? GROUP_RESET : GROUP);
  }

  /** {@code group}'s limits and load; the pool's defaults for a group it knows nothing of. */
  public JsonObject group(String group) {
    PoolSnapshot.GroupStatus status = coordinator.pool().group(group, coordinator.now());
    if (status == null) {
      GroupDefaults d = coordinator.config().settings().flow().defaults();
      status = new PoolSnapshot.GroupStatus(group, 0, 0, d.concurrency(), d.queueCapacity(),
          d.weight(), d.rateLimit(), false, null, null);
    }
    return FlowJson.encode(wall(status));
  }

  /** The pool's pause: {@code {"name", "paused", "pausedSince"}}. */
  public JsonObject pool() {
    PoolSnapshot s = coordinator.snapshot();
    return new JsonObject().put("name", s.name()).put(FlowJson.PAUSED, s.paused())
        .put(FlowJson.PAUSED_SINCE, s.pausedSince());
  }

  /**
   * Applies {@code event} and answers what it changed; the observers hear of it as {@code change}
   * (a pause of what was paused, a resume of what ran, change nothing and are not told).
   */
  private Future<JsonObject> step(PoolEvent event, String group, String change) {
    JsonObject before = group == null ? pool() : group(group);
    Transition t = coordinator.apply(event);
    if (t instanceof Transition.Refused refused) {
      return Future.failedFuture(new PoolErrorException(refused.error()));
    }
    JsonObject after = group == null ? pool() : group(group);
    if (!after.equals(before) || change.equals(GROUP) || change.equals(GROUP_RESET)) {
      for (PoolObserver observer : coordinator.observers()) {
        observer.onFlowChange(change, group, after);
      }
    }
    return Future.succeededFuture(after);
  }

  private PoolSnapshot.GroupStatus wall(PoolSnapshot.GroupStatus s) {
    return dev.shepherd.runtime.time.WallTimes.group(s, coordinator.clock());
  }

  /** The configured groups (F1 in docs/rules.md) that {@code snapshot} does not list. */
  List<PoolSnapshot.GroupStatus> unlisted(PoolSnapshot snapshot) {
    Set<String> names = coordinator.config().settings().flow().groups().keySet();
    if (names.isEmpty()) {
      return List.of();
    }
    Set<String> listed = new HashSet<>();
    snapshot.groups().forEach(g -> listed.add(g.name()));
    List<PoolSnapshot.GroupStatus> unlisted = new ArrayList<>();
    for (String name : names) {
      PoolSnapshot.GroupStatus group = listed.contains(name) ? null
          : coordinator.pool().group(name);
      if (group != null) {
        unlisted.add(group);
      }
    }
    return unlisted;
  }
}
