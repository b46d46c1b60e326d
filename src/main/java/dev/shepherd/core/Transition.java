package dev.shepherd.core;

import java.util.List;

/** The result of applying one event: the effects to run, or a typed refusal that changed nothing. */
public sealed interface Transition {

  /** The event applied; run {@code effects} in order. */
  record Applied(List<Effect> effects) implements Transition {}

  /** The event could not apply; the pool is exactly as it was. */
  record Refused(PoolError error) implements Transition {}

  /** The effects of an applied transition. */
  default List<Effect> effects() {
    if (this instanceof Applied applied) {
      return applied.effects();
    }
    throw new IllegalStateException("refused: " + ((Refused) this).error());
  }
}
