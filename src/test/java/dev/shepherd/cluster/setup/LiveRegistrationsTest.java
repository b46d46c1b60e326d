package dev.shepherd.cluster.setup;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.core.spi.cluster.RegistrationListener;
import io.vertx.core.spi.cluster.RegistrationUpdateEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The event bus is handed only consumers of live members, and a departure reaches it at once
 * (A3, A4 in docs/rules.md: a failover's submits go to the standbys, not to the dead node).
 */
class LiveRegistrationsTest {
  private final Set<String> members = new HashSet<>(Set.of("a", "b", "c"));
  private final Set<String> wanted = new HashSet<>(Set.of("submit"));
  private final List<RegistrationUpdateEvent> updates = new ArrayList<>();
  private final RegistrationListener selector = new RegistrationListener() {
    @Override
    public void registrationsUpdated(RegistrationUpdateEvent event) {
      updates.add(event);
    }

    @Override
    public boolean wantsUpdatesFor(String address) {
      return wanted.contains(address);
    }
  };

  private static RegistrationInfo on(String node) {
    return new RegistrationInfo(node, 1, false);
  }

  private static List<String> nodes(List<RegistrationInfo> registrations) {
    return registrations.stream().map(RegistrationInfo::nodeId).toList();
  }

  @Test
  void A3_a_list_read_while_the_dead_node_is_still_in_it_leaves_that_node_out() {
    LiveRegistrations live = new LiveRegistrations(() -> members);
    members.remove("a");

    assertThat(nodes(live.fetched("submit", List.of(on("a"), on("b"), on("c")))))
        .containsExactly("b", "c");
    live.wrap(selector).registrationsUpdated(
        new RegistrationUpdateEvent("submit", List.of(on("a"), on("c"))));
    assertThat(nodes(updates.get(0).registrations())).containsExactly("c");
  }

  @Test
  void A3_a_departure_hands_the_selector_its_lists_without_the_departed_node_at_once() {
    LiveRegistrations live = new LiveRegistrations(() -> members);
    live.wrap(selector);
    live.fetched("submit", List.of(on("a"), on("b")));
    live.fetched("other", List.of(on("b")));

    members.remove("a");
    live.departed();

    assertThat(updates).hasSize(1);
    assertThat(updates.get(0).address()).isEqualTo("submit");
    assertThat(nodes(updates.get(0).registrations())).containsExactly("b");

    live.departed();
    assertThat(updates).as("a list already without the node is not handed again").hasSize(1);
  }

  @Test
  void A3_a_departure_forgets_the_lists_the_selector_no_longer_wants() {
    LiveRegistrations live = new LiveRegistrations(() -> members);
    live.wrap(selector);
    live.fetched("gone", List.of(on("a")));
    members.remove("a");

    live.departed();
    wanted.add("gone");
    live.departed();

    assertThat(updates).isEmpty();
  }

  @Test
  void A3_a_member_back_in_the_cluster_is_listed_again_by_the_next_update() {
    LiveRegistrations live = new LiveRegistrations(() -> members);
    RegistrationListener wrapped = live.wrap(selector);
    members.remove("a");
    live.departed();
    members.add("a");

    wrapped.registrationsUpdated(new RegistrationUpdateEvent("submit", List.of(on("a"))));

    assertThat(nodes(updates.get(0).registrations())).containsExactly("a");
  }

  @Test
  void before_joining_nothing_is_filtered_and_the_rest_passes_through() {
    LiveRegistrations live = new LiveRegistrations(() -> null);
    boolean[] lost = new boolean[1];
    RegistrationListener wrapped = live.wrap(new RegistrationListener() {
      @Override
      public void registrationsLost() {
        lost[0] = true;
      }

      @Override
      public boolean wantsUpdatesFor(String address) {
        return address.equals("x");
      }
    });
    List<RegistrationInfo> list = List.of(on("z"));

    assertThat(live.fetched("x", list)).isSameAs(list);
    wrapped.registrationsLost();
    assertThat(lost[0]).isTrue();
    assertThat(wrapped.wantsUpdatesFor("x")).isTrue();
    assertThat(wrapped.wantsUpdatesFor("y")).isFalse();
  }

  @Test
  void A4_a_ready_address_is_served_from_its_first_read_and_kept_current_by_update_events() {
    List<List<String>> reached = new ArrayList<>();
    LiveRegistrations live = new LiveRegistrations(() -> members, l -> reached.add(nodes(l)));
    RegistrationListener wrapped = live.wrap(selector);
    assertThat(live.readyList("answers")).as("not ready").isNull();

    assertThat(live.keepReady("answers")).isTrue();
    assertThat(live.keepReady("answers")).as("once").isFalse();
    assertThat(live.readyList("answers")).as("not read yet").isNull();
    live.fetched("answers", List.of());
    assertThat(live.readyList("answers")).isEmpty();

    assertThat(wrapped.wantsUpdatesFor("answers")).as("though the selector does not").isTrue();
    wrapped.registrationsUpdated(new RegistrationUpdateEvent("answers", List.of(on("b"))));
    assertThat(nodes(live.readyList("answers"))).containsExactly("b");
    assertThat(updates).as("the selector does not hold the address").isEmpty();
    assertThat(reached).containsExactly(List.of(), List.of("b"));

    members.remove("b");
    assertThat(live.readyList("answers")).isEmpty();
  }

  @Test
  void A4_a_read_begun_before_an_update_does_not_replace_what_the_update_brought() {
    LiveRegistrations live = new LiveRegistrations(() -> members);
    RegistrationListener wrapped = live.wrap(selector);
    live.keepReady("answers");
    long before = live.updates("answers");

    wrapped.registrationsUpdated(new RegistrationUpdateEvent("answers", List.of(on("c"))));
    assertThat(nodes(live.fetched("answers", List.of(), before))).isEmpty();

    assertThat(nodes(live.readyList("answers"))).containsExactly("c");
  }

  @Test
  void A4_at_most_so_many_addresses_are_kept_ready_and_a_failed_read_lets_one_try_again() {
    LiveRegistrations live = new LiveRegistrations(() -> members);
    for (int i = 0; i < LiveRegistrations.MAX_READY; i++) {
      assertThat(live.keepReady("a" + i)).isTrue();
    }
    assertThat(live.keepReady("one-more")).isFalse();

    live.notReady("a0");
    assertThat(live.keepReady("one-more")).isTrue();
  }

  @Test
  void A4_a_ready_address_whose_consumers_all_left_is_no_longer_kept_ready() {
    LiveRegistrations live = new LiveRegistrations(() -> members);
    RegistrationListener wrapped = live.wrap(selector);
    live.keepReady("client");
    live.fetched("client", List.of(on("b")));

    wrapped.registrationsUpdated(new RegistrationUpdateEvent("client", List.of()));

    assertThat(live.readyList("client")).isNull();
    assertThat(wrapped.wantsUpdatesFor("client")).isFalse();
    assertThat(live.keepReady("client")).as("a later job's replyTo makes it ready again").isTrue();
  }
}
