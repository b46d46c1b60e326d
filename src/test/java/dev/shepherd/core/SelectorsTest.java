package dev.shepherd.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The built-in affinity selectors (P4 in docs/rules.md: an unseen key goes to the selector's
 * choice), each against a view of slots stated by the test.
 */
class SelectorsTest {

  /** One slot as a selector sees it; its id hash is that of {@code hashed} (normally its id). */
  private record Seen(String id, boolean selectable, int inFlight, int capacity, int queued,
      String hashed) {
    Seen(String id, boolean selectable, int inFlight, int capacity, int queued) {
      this(id, selectable, inFlight, capacity, queued, id);
    }

    /** A selectable slot whose id hashes as {@code hashed}'s does (a 64-bit collision). */
    static Seen hashedAs(String id, String hashed) {
      return new Seen(id, true, 0, 1, 0, hashed);
    }

    static Seen open(String id) {
      return new Seen(id, true, 0, 1, 0);
    }

    static Seen retired(String id) {
      return new Seen(id, false, 0, 1, 0);
    }

    static Seen loaded(String id, int inFlight, int queued, int capacity) {
      return new Seen(id, true, inFlight, capacity, queued);
    }
  }

  /** A view of {@code slots} in order, {@code bindings} bindings made so far. */
  private record View(List<Seen> slots, long bindings) implements SlotView {
    static View of(long bindings, Seen... slots) {
      return new View(List.of(slots), bindings);
    }

    @Override
    public int size() {
      return slots.size();
    }

    @Override
    public String id(int index) {
      return slots.get(index).id();
    }

    @Override
    public long idHash(int index) {
      return Hashing.hash64(slots.get(index).hashed());
    }

    @Override
    public boolean selectable(int index) {
      return slots.get(index).selectable();
    }

    @Override
    public int inFlight(int index) {
      return slots.get(index).inFlight();
    }

    @Override
    public int capacity(int index) {
      return slots.get(index).capacity();
    }

    @Override
    public int queued(int index) {
      return slots.get(index).queued();
    }
  }

  /** The selectable slot of {@code view} with the highest unsigned weight for {@code key}. */
  private static String heaviest(String key, View view) {
    return IntStream.range(0, view.size()).filter(view::selectable).boxed()
        .max(Comparator.comparing(
            i -> Hashing.mix64(Hashing.hash64(key) ^ view.idHash(i)), Long::compareUnsigned))
        .map(view::id).orElse(null);
  }

  private static List<String> keys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add("user-" + i);
    }
    return keys;
  }

  @Test
  void P4_rendezvous_chooses_the_selectable_slot_of_highest_weight_for_the_key() {
    View view = View.of(0, Seen.open("w-0"), Seen.retired("w-1"), Seen.open("w-2"),
        Seen.open("w-3"));
    AffinitySelector selector = Selectors.rendezvous();
    List<String> chosen = new ArrayList<>();
    for (String key : keys(200)) {
      String slot = selector.select(key, view);
      assertThat(slot).as(key).isEqualTo(heaviest(key, view)).isNotEqualTo("w-1");
      chosen.add(slot);
    }
    assertThat(chosen).as("every selectable slot gets keys").contains("w-0", "w-2", "w-3");
  }

  @Test
  void P4_rendezvous_moves_only_the_keys_of_a_slot_that_retires() {
    AffinitySelector selector = Selectors.rendezvous();
    View before = View.of(0, Seen.open("w-0"), Seen.open("w-1"), Seen.open("w-2"));
    View after = View.of(0, Seen.open("w-0"), Seen.retired("w-1"), Seen.open("w-2"));
    for (String key : keys(200)) {
      String was = selector.select(key, before);
      if (!was.equals("w-1")) {
        assertThat(selector.select(key, after)).as(key).isEqualTo(was);
      }
    }
  }

  @Test
  void P4_rendezvous_gives_a_key_to_the_earlier_of_two_slots_of_equal_id_hash() {
    AffinitySelector selector = Selectors.rendezvous();
    View view = View.of(0, Seen.open("w-0"), Seen.hashedAs("w-1", "w-3"), Seen.open("w-2"),
        Seen.open("w-3"));
    int tied = 0;
    for (String key : keys(200)) {
      String heaviest = heaviest(key, view);
      if (heaviest.equals("w-1") || heaviest.equals("w-3")) {
        assertThat(selector.select(key, view)).as(key).isEqualTo("w-1");
        tied++;
      }
    }
    assertThat(tied).as("keys whose heaviest weight the two share").isPositive();
  }

  @Test
  void P4_rendezvous_chooses_nothing_when_no_slot_is_selectable() {
    assertThat(Selectors.rendezvous().select("k", View.of(0, Seen.retired("w-0")))).isNull();
    assertThat(Selectors.rendezvous().select("k", View.of(0))).isNull();
  }

  @Test
  void P4_round_robin_gives_each_new_key_the_next_selectable_slot_in_turn() {
    AffinitySelector selector = Selectors.roundRobin();
    Seen[] slots = {Seen.open("w-0"), Seen.retired("w-1"), Seen.open("w-2"), Seen.open("w-3")};
    List<String> turns = new ArrayList<>();
    for (long bindings = 0; bindings < 7; bindings++) {
      turns.add(selector.select("k", View.of(bindings, slots)));
    }
    assertThat(turns).containsExactly("w-0", "w-2", "w-3", "w-0", "w-2", "w-3", "w-0");
  }

  @Test
  void P4_round_robin_chooses_nothing_when_no_slot_is_selectable() {
    assertThat(Selectors.roundRobin().select("k", View.of(3, Seen.retired("w-0"),
        Seen.retired("w-1")))).isNull();
  }

  @Test
  void P4_least_loaded_chooses_the_least_work_per_unit_of_capacity() {
    AffinitySelector selector = Selectors.leastLoaded();
    // w-0: (1 + 1) / 1 = 2; w-1: (1 + 0) / 1 = 1; w-2 would be 0 but is retired.
    assertThat(selector.select("k", View.of(0, Seen.loaded("w-0", 1, 1, 1),
        Seen.loaded("w-1", 1, 0, 1), new Seen("w-2", false, 0, 1, 0)))).isEqualTo("w-1");
    // w-0: 4 / 4 = 1; w-1: 2 / 1 = 2.
    assertThat(selector.select("k", View.of(0, Seen.loaded("w-1", 2, 0, 1),
        Seen.loaded("w-0", 2, 2, 4)))).isEqualTo("w-0");
  }

  @Test
  void P4_least_loaded_counts_an_unknown_capacity_as_one_and_gives_ties_to_the_earlier_slot() {
    AffinitySelector selector = Selectors.leastLoaded();
    // Unknown (-1) counts as 1: w-0's 3 / 1 = 3 is more than w-1's 4 / 2 = 2.
    assertThat(selector.select("k", View.of(0, Seen.loaded("w-0", 3, 0, -1),
        Seen.loaded("w-1", 2, 2, 2)))).isEqualTo("w-1");
    assertThat(selector.select("k", View.of(0, Seen.loaded("w-0", 1, 1, 2),
        Seen.loaded("w-1", 1, 0, 1), Seen.loaded("w-2", 0, 1, 1)))).isEqualTo("w-0");
    assertThat(selector.select("k", View.of(0, Seen.retired("w-0")))).isNull();
  }

  @Test
  void P4_a_selector_is_configured_by_its_name_in_any_case() {
    // Each of the three chooses a different slot here: the turn of binding 2, the idle slot, and
    // the heaviest for user-3.
    View view = View.of(2, Seen.loaded("w-0", 1, 0, 1), Seen.open("w-1"),
        Seen.loaded("w-2", 5, 0, 1));
    assertThat(Selectors.named("round_robin").select("user-3", view)).isEqualTo("w-2");
    assertThat(Selectors.named("Least_Loaded").select("user-3", view)).isEqualTo("w-1");
    assertThat(Selectors.named("rendezvous").select("user-3", view))
        .isEqualTo(heaviest("user-3", view)).isEqualTo("w-0");
    assertThatThrownBy(() -> Selectors.named("closest"))
        .isInstanceOfSatisfying(ConfigException.class,
            e -> assertThat(e.field()).isEqualTo("affinity.selector"))
        .hasMessage("affinity.selector: must be RENDEZVOUS, ROUND_ROBIN, LEAST_LOADED or a class"
            + " name (was \"closest\")");
  }
}
