package dev.shepherd.runtime.observe;

import dev.shepherd.core.BudgetReaction;
import dev.shepherd.core.Exit;
import dev.shepherd.core.HostState;
import dev.shepherd.core.Interruption;
import dev.shepherd.core.Notice;
import dev.shepherd.core.Outcome;
import dev.shepherd.core.Phase;
import dev.shepherd.core.Retirement;
import dev.shepherd.runtime.coordinator.LocalSlot;
import dev.shepherd.runtime.coordinator.PoolObserver;
import dev.shepherd.runtime.payload.LogText;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a pool's supervision notices: one line per restart, retirement and budget refusal, each
 * in the words of {@link IncidentWords} (J8 in docs/rules.md: the budget's numbers as the pool's,
 * the slot's own restarts as its own, the running jobs by id); a poisoned job once at WARN;
 * dead-letter evictions and an operator's replays and discards at INFO. A crash itself is logged
 * once, with its cause, where it happens ({@link LocalSlot}); the restart line here does not repeat
 * it.
 */
public final class PoolLog implements PoolObserver {
  private static final Logger LOG = LoggerFactory.getLogger("dev.shepherd.pool");
  /** Slots whose last exit is remembered (registered hosts can add slots). */
  static final int MAX_SLOTS = 1024;

  private final String pool;
  /** The pool's restart window, to say the budget's numbers with it. */
  private final long windowMs;
  /**
   * Hosts that left on purpose: their slots ({@code <host>/w-i}) retire as they go, which is
   * the host's doing, not a failure worth a warning.
   */
  private final Set<String> departedHosts = new HashSet<>();
  /**
   * A budget refusal whose retirement follows in the same step: the retirement's warning tells
   * both, so the incident is one line.
   */
  private final Map<String, Notice.BudgetExceeded> refused = new HashMap<>();
  /** Each slot's last exit, for a retirement by restart policy (no notice carries it). */
  private final Map<String, Exit> lastExits = new LinkedHashMap<>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Exit> eldest) {
      return size() > MAX_SLOTS;
    }
  };

  /** The log of pool {@code pool}, whose restart budget counts over {@code windowMs}. */
  public PoolLog(String pool, long windowMs) {
    this.pool = pool;
    this.windowMs = windowMs;
  }

  @Override
  public void onStop(String worker, int incarnation, Exit reason) {
    lastExits.remove(worker);
    lastExits.put(worker, reason);
  }

  @Override
  public void onOutcome(Outcome outcome) {
    if (outcome instanceof Outcome.Interrupted i && i.reason() instanceof Interruption.Poison p) {
      LOG.warn("pool {}: {}", pool, IncidentWords.poisoned(outcome.job(), p, LogText::quote));
    }
  }

  @Override
  public void onNotice(Notice notice) {
    if (notice instanceof Notice.RestartDecided r) {
      LOG.info("pool {}: {} stopped ({}) {}; replacing {}{}{}", pool, r.worker(), r.exit(),
          IncidentWords.running(r.jobs(), r.jobs().size(), LogText::quote), r.replaced(),
          r.delayMs() > 0 ? " in " + r.delayMs() + " ms" : "",
          r.charged() ? "" : "; not charged to the restart budget (a suspect was running, which"
              + " poisonAfter judges)");
    } else if (notice instanceof Notice.PhaseChanged p && p.phase() == Phase.RETIRED) {
      retired(p);
    } else if (notice instanceof Notice.BudgetExceeded b) {
      if (b.reaction() == BudgetReaction.STOP_POOL) {
        LOG.warn("pool {}: {}", pool, IncidentWords.budgetRefusal(b, windowMs, LogText::quote));
      } else {
        Notice.BudgetExceeded unsaid = refused.put(b.worker(), b);
        if (unsaid != null) {
          LOG.warn("pool {}: {}", pool,
              IncidentWords.budgetRefusal(unsaid, windowMs, LogText::quote));
        }
      }
    } else if (notice instanceof Notice.DeadLettered d) {
      deadLettered(d);
    } else if (notice instanceof Notice.DeadLetterRemoved d) {
      String how = switch (d.why()) {
        case EVICTED -> "evicted from the dead-letter set (the oldest, to make room)";
        case REPLAYED -> "replayed from the dead-letter set";
        case DISCARDED -> "discarded from the dead-letter set";
      };
      LOG.info("pool {}: job {} {}; {} kept", pool, LogText.quote(d.job()), how, d.size());
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
    } else if (notice instanceof Notice.Resized r) {
      LOG.info("pool {}: resized to {} local slots of maxConcurrency {}; added {}, draining {}",
          pool, r.instances(), r.maxConcurrency(), r.added(), r.draining());
    } else if (notice instanceof Notice.SlotRemoved r) {
      LOG.info("pool {}: {} drained and left the pool (incarnation {} stopped)", pool,
          r.worker(), r.incarnation());
    }
  }

  private void retired(Notice.PhaseChanged p) {
    Notice.BudgetExceeded refusal = refused.remove(p.worker());
    Exit exit = lastExits.get(p.worker());
    if (refusal != null) {
      LOG.warn("pool {}: {}", pool,
          IncidentWords.retiredByBudget(refusal, windowMs, LogText::quote));
    } else if (p.retirement() == Retirement.REPLACEMENT_UNAVAILABLE
        && leftWithItsHost(p.worker())) {
      LOG.info("pool {}: {} left with its host", pool, p.worker());
    } else {
      LOG.warn("pool {}: {} retired ({}): {}", pool, p.worker(), p.retirement(),
          why(p.retirement(), exit));
    }
  }

  /** Why a slot retired when no budget refusal came before. */
  private static String why(Retirement retirement, Exit exit) {
    if (retirement == null) {
      return "no reason given";
    }
    return switch (retirement) {
      case REPLACEMENT_UNAVAILABLE -> "its restart policy does not replace it"
          + (exit == null ? "" : " after a " + exit + " exit");
      case CREATION_REJECTED -> "its worker failed to start";
      case HOST_LOST -> "its host stayed lost past the grace period";
    };
  }

  private void deadLettered(Notice.DeadLettered d) {
    // A poisoned job had its warning with the outcome; a failed one is an answer like others.
    boolean notable = "ATTEMPTS_EXHAUSTED".equals(d.reason());
    if (notable ? LOG.isInfoEnabled() : LOG.isDebugEnabled()) {
      String line = "pool {}: job {} kept in the dead-letter set ({} after {}, the last on {});"
          + " {} kept";
      Object[] args = {pool, LogText.quote(d.job()), d.reason(),
          IncidentWords.plural(d.attempts(), "attempt"), d.worker(), d.size()};
      if (notable) {
        LOG.info(line, args);
      } else {
        LOG.debug(line, args);
      }
    }
  }

  private boolean leftWithItsHost(String worker) {
    int slash = worker.lastIndexOf('/');
    return slash > 0 && departedHosts.contains(worker.substring(0, slash));
  }
}
