package dev.shepherd.runtime;

import dev.shepherd.core.Notice;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Phase;
import dev.shepherd.core.Retirement;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs a pool's supervision notices: one line per restart, retirement, budget refusal. */
final class PoolLog implements PoolObserver {
  private static final Logger LOG = LoggerFactory.getLogger("dev.shepherd.pool");

  private final String pool;
  /**
   * Hosts that left on purpose: their slots ({@code <host>/w-i}) retire as they go, which is
   * the host's doing, not a failure worth a warning.
   */
  private final Set<String> departedHosts = new HashSet<>();

  PoolLog(String pool) {
    this.pool = pool;
  }

  @Override
  public void onNotice(Notice notice) {
    if (notice instanceof Notice.RestartDecided r) {
      LOG.info("pool {}: {} stopped ({}); replacing {}{}", pool, r.worker(), r.exit(),
          r.replaced(), r.delayMs() > 0 ? " in " + r.delayMs() + " ms" : "");
    } else if (notice instanceof Notice.PhaseChanged p && p.phase() == Phase.RETIRED) {
      if (p.retirement() == Retirement.REPLACEMENT_UNAVAILABLE && leftWithItsHost(p.worker())) {
        LOG.info("pool {}: {} left with its host", pool, p.worker());
      } else {
        LOG.warn("pool {}: {} retired ({})", pool, p.worker(), p.retirement());
      }
    } else if (notice instanceof Notice.BudgetExceeded b) {
      LOG.warn("pool {}: restart budget exceeded by {}: {} in window + {} requested > {}; {}",
          pool, b.worker(), b.restartsInWindow(), b.replacementsRequested(),
          b.maximumRestarts(), b.reaction());
    } else if (notice instanceof Notice.Revived r) {
      LOG.info("pool {}: {} revived as incarnation {} (was retired {}) by {}", pool, r.worker(),
          r.incarnation(), r.was(), r.byOperator() ? "an operator" : "supervision.reviveAfterMs");
    } else if (notice instanceof Notice.HostChanged h) {
      if (h.state() == HostState.GONE) {
        departedHosts.add(h.host());
      } else {
        departedHosts.remove(h.host());
      }
      if (h.state() == HostState.LOST) {
        LOG.warn("pool {}: host {} (node {}) lost: {}", pool, LogText.quote(h.host()), h.node(),
            LogText.quote(h.cause()));
      } else {
        LOG.info("pool {}: host {} (node {}) {}", pool, LogText.quote(h.host()), h.node(),
            h.state() == HostState.UP ? "registered" : "left");
      }
    } else if (notice instanceof Notice.PoolStateChanged s) {
      LOG.info("pool {}: {}", pool, s.state());
    } else if (notice instanceof Notice.Recovered r) {
      LOG.info("pool {}: took over in term {} from term {}: {} jobs, {} of them interrupted",
          pool, r.term(), r.previousTerm(), r.jobs(), r.interrupted());
    }
  }

  private boolean leftWithItsHost(String worker) {
    int slash = worker.lastIndexOf('/');
    return slash > 0 && departedHosts.contains(worker.substring(0, slash));
  }
}
