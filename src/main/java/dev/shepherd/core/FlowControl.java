package dev.shepherd.core;

/**
 * Operators' flow-control events and the flow timers (F1, F4, F5 in docs/rules.md): run-time
 * group overrides, pauses and resumes of the pool or a group, and {@link Timer.GroupReady}. None
 * is ever refused; none costs budget or moves a binding. A durable pool journals each change
 * ({@link DurableRecord.GroupSet}, {@link DurableRecord.Paused}, {@link DurableRecord.Resumed}).
 */
final class FlowControl {
  private final PoolData d;

  FlowControl(PoolData data) {
    this.d = data;
  }

  /**
   * F1 (docs/rules.md): the run-time override replaces the previous one; its {@code paused}
   * pauses or resumes.
   */
  void setGroup(PoolEvent.SetGroup e) {
    FlowGroup group = d.groups.of(e.group());
    group.runtime = e.settings();
    group.configure(d.groups.settings().defaults(), e.now());
    d.groups.disarm(group);
    d.record(new DurableRecord.GroupSet(e.group(), e.settings()));
    DurableImage.GroupImage was = d.groups.journaled.get(e.group());
    d.groups.journaled.put(e.group(), new DurableImage.GroupImage(e.group(), e.settings(),
        was == null ? null : was.pausedSince()));
    Boolean paused = e.settings() == null ? null : e.settings().paused();
    if (Boolean.TRUE.equals(paused)) {
      pauseGroup(group, e.now());
    } else if (Boolean.FALSE.equals(paused)) {
      resumeGroup(group);
    }
    settled(group, e.now());
  }

  /**
   * F5 (docs/rules.md): nothing new is dispatched from the pool or the group; running jobs
   * finish. A group's pause runs dispatch: a slot that waited to be idle for the group's suspect
   * (J2), say one whose key a resize moved there (F6), may take another group's job now.
   */
  void pause(PoolEvent.Pause e) {
    if (e.group() == null) {
      if (d.groups.poolPausedSince == null) {
        d.groups.poolPausedSince = e.now();
        d.record(new DurableRecord.Paused(null, e.now()));
      }
      return;
    }
    FlowGroup group = d.groups.of(e.group());
    if (group.pausedSince == null) {
      pauseGroup(group, e.now());
      d.dispatch(e.now());
    }
  }

  /** F5 (docs/rules.md): the pool or the group dispatches again, at once. */
  void resume(PoolEvent.Resume e) {
    if (e.group() == null) {
      if (d.groups.poolPausedSince != null) {
        d.groups.poolPausedSince = null;
        d.record(new DurableRecord.Resumed(null));
        d.dispatch(e.now());
      }
      return;
    }
    FlowGroup group = d.groups.find(e.group());
    if (group != null && group.pausedSince != null) {
      resumeGroup(group);
      settled(group, e.now());
    }
  }

  /**
   * F4 (docs/rules.md): a token refilled or a hold ended: dispatch runs; a timer of the past is
   * ignored.
   */
  void ready(Timer.GroupReady t) {
    if (t.group() == null) {
      if (d.groups.poolReadyAt != t.at()) {
        d.ignoredFacts++;
        return;
      }
      d.groups.poolReadyAt = Long.MAX_VALUE;
      d.dispatch(d.now);
      return;
    }
    FlowGroup group = d.groups.find(t.group());
    if (group == null || group.readyAt != t.at()) {
      d.ignoredFacts++;
      return;
    }
    group.readyAt = Long.MAX_VALUE;
    settled(group, d.now);
  }

  private void pauseGroup(FlowGroup group, long now) {
    if (group.pausedSince != null) {
      return;
    }
    group.pausedSince = now;
    d.record(new DurableRecord.Paused(group.name, now));
    journalPause(group);
  }

  private void resumeGroup(FlowGroup group) {
    if (group.pausedSince == null) {
      return;
    }
    group.pausedSince = null;
    d.record(new DurableRecord.Resumed(group.name));
    journalPause(group);
  }

  private void journalPause(FlowGroup group) {
    DurableImage.GroupImage was = d.groups.journaled.get(group.name);
    d.groups.journaled.put(group.name, new DurableImage.GroupImage(group.name,
        was == null ? null : was.settings(), group.pausedSince));
  }

  /** {@code group} may have unblocked: its queues go back, and dispatch runs. */
  private void settled(FlowGroup group, long now) {
    d.backlog.unpark(group);
    d.groups.forgetIfIdle(group);
    d.dispatch(now);
  }
}
