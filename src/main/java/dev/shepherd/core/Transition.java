package dev.shepherd.core;

import java.util.List;
import java.util.Objects;

/**
 * The result of applying one event: the effects to run and what the pool decided about the
 * request that caused it (its {@link Verdict}), or a typed refusal that changed nothing. The
 * runtime runs the effects; whoever made the request reads the verdict, never the effects.
 */
public sealed interface Transition {

  /** The event applied; run {@code effects} in order; {@code verdict} answers its request. */
  record Applied(List<Effect> effects, Verdict verdict) implements Transition {
    public Applied {
      Objects.requireNonNull(verdict, "verdict");
    }

    /** An applied event whose request has nothing to be told but that it applied. */
    public Applied(List<Effect> effects) {
      this(effects, Verdict.NONE);
    }
  }

  /** The event could not apply; the pool is exactly as it was: no effects, no verdict. */
  record Refused(PoolError error) implements Transition {
    @Override
    public List<Effect> effects() {
      throw refused();
    }

    @Override
    public Verdict verdict() {
      throw refused();
    }

    private IllegalStateException refused() {
      return new IllegalStateException("refused: " + error);
    }
  }

  /**
   * What an applied transition decided about the request that caused it, for a caller that asks
   * (an operator's cancel or revive). Answers to submitters are not verdicts: they are {@link
   * Effect.Respond}s, which a durable pool lets out only once their records are written.
   */
  sealed interface Verdict {
    /** Nothing to tell beyond "applied". */
    None NONE = new None();

    /** Nothing to tell beyond "applied". */
    record None() implements Verdict {}

    /** {@code job} is answered CANCELLED by this transition (a cancel of a job not yet done). */
    record Cancelled(String job) implements Verdict {}

    /** {@code worker} was revived as {@code incarnation} by this transition. */
    record Revived(String worker, int incarnation) implements Verdict {}
  }

  /** The effects of an applied transition; a refused one throws. */
  List<Effect> effects();

  /** The verdict of an applied transition; a refused one throws. */
  Verdict verdict();
}
