package dev.shepherd.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.shepherd.LogCapture;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Phase;
import dev.shepherd.core.Retirement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an operator reads about retirements: a failure warns, a host leaving on purpose does not. */
class PoolLogTest {
  private static Notice retired(String worker, Retirement why) {
    return new Notice.PhaseChanged(worker, Phase.RETIRED, 1, null, why);
  }

  private static List<ILoggingEvent> log(Notice... notices) {
    try (LogCapture log = LogCapture.start("dev.shepherd.pool")) {
      PoolLog pool = new PoolLog("jobs");
      for (Notice n : notices) {
        pool.onNotice(n);
      }
      return log.events().stream().filter(e -> e.getLoggerName().equals("dev.shepherd.pool"))
          .toList();
    }
  }

  @Test
  void slots_of_a_host_that_left_on_purpose_are_logged_as_leaving_not_warned() {
    List<ILoggingEvent> events = log(
        new Notice.HostChanged("h2", "node-2", HostState.GONE, null),
        retired("h2/w-0", Retirement.REPLACEMENT_UNAVAILABLE),
        retired("h2/w-1", Retirement.REPLACEMENT_UNAVAILABLE));
    assertThat(events).extracting(ILoggingEvent::getLevel).containsOnly(Level.INFO);
    assertThat(events).extracting(ILoggingEvent::getFormattedMessage)
        .contains("pool jobs: h2/w-0 left with its host", "pool jobs: h2/w-1 left with its host");
  }

  @Test
  void a_retirement_is_a_warning_otherwise_and_again_once_the_host_is_back() {
    List<ILoggingEvent> events = log(
        retired("w-0", Retirement.REPLACEMENT_UNAVAILABLE),
        new Notice.HostChanged("h1", "node-1", HostState.LOST, "left the cluster"),
        retired("h1/w-0", Retirement.HOST_LOST),
        new Notice.HostChanged("h2", "node-2", HostState.GONE, null),
        new Notice.HostChanged("h2", "node-3", HostState.UP, null),
        retired("h2/w-0", Retirement.REPLACEMENT_UNAVAILABLE));
    assertThat(events).filteredOn(e -> e.getFormattedMessage().contains("retired"))
        .extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.WARN, Level.WARN);
  }
}
