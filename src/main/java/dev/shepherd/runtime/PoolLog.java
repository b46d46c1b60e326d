package dev.shepherd.runtime;

import dev.shepherd.core.Notice;
import dev.shepherd.core.Phase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Logs a pool's supervision notices: one line per restart, retirement, budget refusal. */
final class PoolLog implements PoolObserver {
  private static final Logger LOG = LoggerFactory.getLogger("dev.shepherd.pool");

  private final String pool;

  PoolLog(String pool) {
    this.pool = pool;
  }

  @Override
  public void onNotice(Notice notice) {
    if (notice instanceof Notice.RestartDecided r) {
      LOG.info("pool {}: {} stopped ({}); replacing {}{}", pool, r.worker(), r.exit(),
          r.replaced(), r.delayMs() > 0 ? " in " + r.delayMs() + " ms" : "");
    } else if (notice instanceof Notice.PhaseChanged p && p.phase() == Phase.RETIRED) {
      LOG.warn("pool {}: {} retired ({})", pool, p.worker(), p.retirement());
    } else if (notice instanceof Notice.BudgetExceeded b) {
      LOG.warn("pool {}: restart budget exceeded by {}: {} in window + {} requested > {}; {}",
          pool, b.worker(), b.restartsInWindow(), b.replacementsRequested(),
          b.maximumRestarts(), b.reaction());
    } else if (notice instanceof Notice.Revived r) {
      LOG.info("pool {}: {} revived as incarnation {} (was retired {}) by {}", pool, r.worker(),
          r.incarnation(), r.was(), r.byOperator() ? "an operator" : "supervision.reviveAfterMs");
    } else if (notice instanceof Notice.HostChanged h) {
      if (h.state() == dev.shepherd.core.HostState.LOST) {
        LOG.warn("pool {}: host {} (node {}) lost: {}", pool, LogText.quote(h.host()), h.node(),
            LogText.quote(h.cause()));
      } else {
        LOG.info("pool {}: host {} (node {}) {}", pool, LogText.quote(h.host()), h.node(),
            h.state() == dev.shepherd.core.HostState.UP ? "registered" : "left");
      }
    } else if (notice instanceof Notice.PoolStateChanged s) {
      LOG.info("pool {}: {}", pool, s.state());
    } else if (notice instanceof Notice.Recovered r) {
      LOG.info("pool {}: took over in term {} from term {}: {} jobs, {} of them interrupted",
          pool, r.term(), r.previousTerm(), r.jobs(), r.interrupted());
    }
  }
}
