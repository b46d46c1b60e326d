package dev.shepherd.core;

import java.util.Locale;

/** The built-in affinity selectors, and lookup by configuration name. */
public final class Selectors {
  private Selectors() {}

  /**
   * Highest-random-weight hashing over the selectable slots: a pure function of the key and the
   * slot ids. When a slot retires only its own keys would choose differently. Two slots of equal
   * id hash weigh the same for every key: the earlier one is chosen.
   */
  public static AffinitySelector rendezvous() {
    return (key, slots) -> {
      long keyHash = Hashing.hash64(key);
      String best = null;
      long bestWeight = 0;
      for (int i = 0; i < slots.size(); i++) {
        if (!slots.selectable(i)) {
          continue;
        }
        long weight = Hashing.mix64(keyHash ^ slots.idHash(i));
        if (best == null || Long.compareUnsigned(weight, bestWeight) > 0) {
          best = slots.id(i);
          bestWeight = weight;
        }
      }
      return best;
    };
  }

  /** Each new key goes to the next selectable slot in turn. */
  public static AffinitySelector roundRobin() {
    return (key, slots) -> {
      int selectable = 0;
      for (int i = 0; i < slots.size(); i++) {
        if (slots.selectable(i)) {
          selectable++;
        }
      }
      if (selectable == 0) {
        return null;
      }
      long turn = slots.bindings() % selectable;
      for (int i = 0; i < slots.size(); i++) {
        if (slots.selectable(i) && turn-- == 0) {
          return slots.id(i);
        }
      }
      throw new AssertionError("a selectable slot was counted");
    };
  }

  /**
   * Each new key goes to the selectable slot with the least work (in flight plus queued) per unit
   * of capacity; ties go to the earlier slot. A slot of unknown capacity counts as capacity 1.
   */
  public static AffinitySelector leastLoaded() {
    return (key, slots) -> {
      String best = null;
      double bestLoad = Double.MAX_VALUE;
      for (int i = 0; i < slots.size(); i++) {
        if (!slots.selectable(i)) {
          continue;
        }
        double load = (double) (slots.inFlight(i) + slots.queued(i)) / Math.max(1, slots.capacity(i));
        if (load < bestLoad) {
          best = slots.id(i);
          bestLoad = load;
        }
      }
      return best;
    };
  }

  /** The selector configured by name: RENDEZVOUS, ROUND_ROBIN or LEAST_LOADED. */
  public static AffinitySelector named(String name) {
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "RENDEZVOUS" -> rendezvous();
      case "ROUND_ROBIN" -> roundRobin();
      case "LEAST_LOADED" -> leastLoaded();
      default -> throw new ConfigException(
          "affinity.selector", name, "must be RENDEZVOUS, ROUND_ROBIN, LEAST_LOADED or a class name");
    };
  }
}
