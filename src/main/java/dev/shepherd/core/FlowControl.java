package dev.shepherd.core;

/** Operators' flow-control events (F1, F4, F5 in docs/rules.md). */
final class FlowControl {
  private final PoolData d;

  FlowControl(PoolData data) {
    this.d = data;
  }

  PoolError setGroup(PoolEvent.SetGroup e) {
    return null;
  }

  PoolError pause(PoolEvent.Pause e) {
    return null;
  }

  PoolError resume(PoolEvent.Resume e) {
    return null;
  }

  void ready(Timer.GroupReady t) {
    d.ignoredFacts++;
  }
}
