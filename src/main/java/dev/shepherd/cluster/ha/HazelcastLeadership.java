package dev.shepherd.cluster.ha;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.SplitBrainProtectionConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.LifecycleEvent;
import dev.shepherd.cluster.trust.ClusterKeys;
import dev.shepherd.core.HaStatus;
import dev.shepherd.core.ha.DurableGate;
import dev.shepherd.runtime.ha.DurableJsonWriter;
import dev.shepherd.runtime.ha.JournalTrace;
import dev.shepherd.core.ha.DurableLog;
import dev.shepherd.runtime.ha.Leadership;
import dev.shepherd.runtime.ha.RecoveryWarmUp;
import dev.shepherd.runtime.ha.WarmUpThread;
import dev.shepherd.runtime.ha.TakeoverClasses;
import dev.shepherd.runtime.payload.LogText;
import dev.shepherd.runtime.PoolConfig;
import dev.shepherd.runtime.time.RuntimeClock;
import dev.shepherd.runtime.time.RuntimeTime;
import dev.shepherd.runtime.time.Scheduler;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leadership of a highly available pool on Hazelcast (A1, A2 in docs/rules.md): the node stands by,
 * trying every {@link #RETRY_MS} (and at once when a member leaves) to claim the pool's next term
 * from the {@link HaStore}, which succeeds only when no live member holds the pool's lock and a
 * majority of the cluster is there. The leader steps down at once when its member starts merging
 * back into a cluster (it was cut off and may have been replaced) or when the cluster falls below
 * the majority; a write that fails makes its coordinator step down by itself. A claim's moment,
 * which starts the lease, is read on the node's monotonic clock.
 */
public final class HazelcastLeadership implements Leadership {
  /** Whether this JVM warmed up a takeover's reading of the log ({@link #warmUp}). */
  private static final AtomicBoolean WARMED = new AtomicBoolean();
  /** Rounds of the warm-up: enough for the JIT to compile its loops. */
  private static final int WARM_UP_ROUNDS = 5;
  private static final Logger LOG = LoggerFactory.getLogger(HazelcastLeadership.class);
  /**
   * The system property that sets {@link #WRITES_IN_FLIGHT} (1 to 16, default 4), for measuring
   * what pipelining the writes buys ({@code HaBench}).
   */
  static final String WRITES_PROPERTY = "shepherd.ha.writesInFlight";
  /** How many of a leader's writes may be in flight at once. */
  static final int WRITES_IN_FLIGHT = writesInFlight(System.getProperty(WRITES_PROPERTY));
  /**
   * How often a standby tries to claim the pool, and looks whether its leader's member is gone:
   * a claim is one small entry processor on the key's owner, refused while the leader lives.
   */
  static final long RETRY_MS = 100;
  /** The split-brain protection of the store, as {@code conf/cluster.xml} names it. */
  public static final String MAJORITY = "shepherd-majority";
  /**
   * The fewest members with which HA is available (A1 in docs/rules.md): three, a majority of two
   * and one more.
   */
  static final int AVAILABLE_MEMBERS = 3;

  private Vertx vertx;
  private Context context;
  private RuntimeClock clock;
  private Scheduler scheduler;
  private String pool;
  private Candidate candidate;
  /** The cluster's size last warned about by {@link #checkMajority}; 0 until one is. */
  private int warnedAt;
  private HazelcastClusterManager manager;
  private HazelcastInstance hazelcast;
  private HaStore store;
  private SealedRecords sealed;
  /** This standby's reading of the log as it is written, so a takeover reads only its tail. */
  private LogFollower follower;
  private String node;
  private int quorum;
  private UUID membershipRegistration;
  private UUID lifecycleRegistration;
  private long timer = -1;
  private boolean claiming;
  private boolean stopped;
  /** The term this node leads, or 0 while it stands by. */
  private long leading;
  /**
   * The node id of the pool's leader as this standby's last refused claim named it (null:
   * unknown): when that node's member leaves, a claim of this node may win.
   */
  private String leaderNode;
  /** Whether the current member is merging back into a cluster: no claims until it merged. */
  private volatile boolean merging;

  @Override
  public Future<Void> start(Context context, PoolConfig config, Candidate candidate) {
    this.context = context;
    this.vertx = context.owner();
    RuntimeTime time = RuntimeTime.of(vertx);
    this.clock = time.clock();
    this.scheduler = time.scheduler(context);
    this.pool = config.name();
    this.candidate = candidate;
    Object cluster = ((VertxInternal) vertx).clusterManager();
    if (!(cluster instanceof HazelcastClusterManager hz)) {
      return Future.failedFuture(new IllegalStateException("pool " + pool
          + ": ha.enabled needs the Hazelcast cluster manager"));
    }
    manager = hz;
    hazelcast = hz.getHazelcastInstance();
    store = new HaStore(hazelcast);
    sealed = new SealedRecords(pool, ClusterKeys.of(vertx));
    follower = new LogFollower(pool, store, sealed, context,
        hz instanceof ReplyRoutes routes ? routes : address -> { });
    node = manager.getNodeId();
    SplitBrainProtectionConfig majority =
        hazelcast.getConfig().getSplitBrainProtectionConfigs().get(MAJORITY);
    quorum = majority == null || !majority.isEnabled() ? 1 : majority.getMinimumClusterSize();
    if (quorum < 2) {
      LOG.warn("pool {}: the cluster has no split-brain protection {} (absent, or turned off"
          + " by SHEPHERD_CLUSTER_MAJORITY=1): a member alone leads the pool, and both sides of"
          + " a split could lead it", pool, MAJORITY);
    }
    membershipRegistration = hazelcast.getCluster().addMembershipListener(
        new MembershipListener() {
          @Override
          public void memberAdded(MembershipEvent event) {
            context.runOnContext(v -> checkMajority());
          }

          @Override
          public void memberRemoved(MembershipEvent event) {
            LOG.info("pool {}: member {} left the cluster", pool, event.getMember().getUuid());
            String gone = event.getMember().getAttribute(HaStore.NODE_ID);
            context.runOnContext(v -> memberLeft(gone));
          }
        });
    lifecycleRegistration = hazelcast.getLifecycleService().addLifecycleListener(event -> {
      if (event.getState() == LifecycleEvent.LifecycleState.MERGING) {
        merging = true;
        context.runOnContext(v -> lose("this member is merging back into the cluster"));
      } else if (event.getState() == LifecycleEvent.LifecycleState.MERGED
          || event.getState() == LifecycleEvent.LifecycleState.MERGE_FAILED) {
        merging = false;
      } else if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN) {
        context.runOnContext(v -> lose("this member's Hazelcast is shutting down"));
      }
    });
    LOG.info("pool {}: node {} stands by for leadership (high availability; {} members needed"
        + " to lead)", pool, node, quorum);
    checkMajority();
    warmUp(config);
    timer = scheduler.every(RETRY_MS, this::tryClaim);
    tryClaim();
    return Future.succeededFuture();
  }

  /**
   * Once per JVM, on a thread of its own ({@link WarmUpThread}): the classes a takeover uses
   * loaded ({@link TakeoverClasses}), and a takeover's reading of the log and the pool's recovery
   * from it, run on a made-up one ({@link RecoveryWarmUp}), so that this node runs them compiled
   * if it takes over.
   */
  private static void warmUp(PoolConfig config) {
    if (!WARMED.compareAndSet(false, true)) {
      return;
    }
    WarmUpThread.start("shepherd-takeover-warm-up", () -> {
      long start = System.nanoTime();
      int classes = TakeoverClasses.load(HazelcastLeadership.class.getClassLoader());
      RecoveryWarmUp.run(WARM_UP_ROUNDS, config.settings());
      LOG.debug("a takeover's classes ({}) loaded and its reading of the log warmed up in {} ms",
          classes, (System.nanoTime() - start) / 1_000_000);
    }, e -> LOG.warn("warming up a takeover's reading of the log failed: {}",
        LogText.quote(String.valueOf(e))));
  }

  /** A member left: the leader may be gone, so claim at once; {@code gone} is its node id. */
  private void memberLeft(String gone) {
    if (leading != 0 && members() < quorum) {
      lose("the cluster has " + members() + " members, fewer than the " + quorum
          + " a majority needs");
    } else {
      if (leading == 0 && !stopped && gone != null && gone.equals(leaderNode)) {
        leaderNode = null;
        candidate.claiming();
      }
      tryClaim();
    }
  }

  private void lose(String why) {
    if (leading != 0) {
      leading = 0;
      candidate.stepDown(why);
    }
  }

  /** Members of the cluster as this one sees it; none once its Hazelcast has shut down. */
  /** Warns once per size the cluster grows to while its majority is none ({@link MajorityCheck}). */
  private void checkMajority() {
    int members = members();
    String warning = MajorityCheck.warning(members, quorum);
    if (warning != null && members > warnedAt) {
      warnedAt = members;
      LOG.warn("pool {}: {}", pool, warning);
    }
  }

  private int members() {
    try {
      return manager.getNodes().size();
    } catch (HazelcastInstanceNotActiveException e) {
      return 0;
    }
  }

  private void tryClaim() {
    if (stopped || leading != 0 || merging) {
      return;
    }
    Set<String> members;
    try {
      members = new HashSet<>(manager.getNodes());
    } catch (HazelcastInstanceNotActiveException e) {
      return;
    }
    if (leaderNode != null && !members.contains(leaderNode)) {
      // Hazelcast's member list drops a member before its listeners hear of it (seen 0.5 s
      // apart while the cluster cleans up after a kill): whichever comes first starts it.
      leaderNode = null;
      candidate.claiming();
    }
    if (claiming || members.size() < quorum) {
      return;
    }
    if (leaderNode != null) {
      // A live leader: follow its log; a claim, which it would refuse, waits for the reading
      // (one sent meanwhile would drop it). Once its member is gone the claim goes at once.
      follower.tick(clock.monotonicMs());
      if (follower.looking()) {
        return;
      }
    }
    claiming = true;
    long sentAt = clock.monotonicMs();
    HaEntry.Position followed = follower.claimFrom();
    CompletionStage<HaEntry.Claimed> claim;
    try {
      claim = store.claim(pool, node, members, followed);
    } catch (HazelcastInstanceNotActiveException e) {
      claiming = false;
      return;
    }
    claim.whenComplete((claimed, error) ->
        context.runOnContext(v -> {
          if (error != null || claimed == null || !claimed.won() || stopped || merging) {
            claiming = false;
            if (error != null) {
              LOG.debug("pool {}: claim failed: {}", pool, LogText.quote(error.toString()));
            } else if (claimed != null && !claimed.won()) {
              leaderNode = claimed.heldBy();
              candidate.anotherLeads();
            } else if (claimed != null) {
              store.resign(pool, node, claimed.term());
            }
            return;
          }
          long answeredAt = clock.monotonicMs();
          Map<String, JournalTrace> traces = new HashMap<>();
          // Still claiming while the log is read: no second claim of this node meanwhile.
          follower.recover(claimed, traces).onComplete(read -> {
            claiming = false;
            if (read.failed()) {
              LOG.error("pool {}: the store's log of term {} cannot be read: {}", pool,
                  claimed.previousTerm(),
                  LogText.quote(String.valueOf(read.cause().getMessage())));
              store.resign(pool, node, claimed.term());
              return;
            }
            if (stopped || merging) {
              store.resign(pool, node, claimed.term());
              return;
            }
            leading = claimed.term();
            long readAt = clock.monotonicMs();
            LOG.info("pool {}: node {} claimed term {} ({} ms from the claim's start: answered"
                + " after {} ms, its log of {} bytes read in {} ms{})", pool, node,
                claimed.term(), readAt - sentAt, answeredAt - sentAt, claimed.bytes(),
                readAt - answeredAt, claimed.tail() ? ", after the " + follower.bytesFollowed()
                    + " bytes it had followed" : "");
            follower.reset();
            candidate.lead(claimed.term(), read.result(), traces, sentAt);
          });
        }));
  }

  @Override
  public Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base base) {
    return write(term, batch, base, Map.of());
  }

  /** The traces (T1 in docs/rules.md) ride inside the sealed text, beside their jobs' records. */
  @Override
  public Future<Void> write(long term, DurableGate.Batch batch, DurableLog.Base base,
      Map<String, JournalTrace> traces) {
    Promise<Void> written = Promise.promise();
    byte[] text = base == null ? sealed.seal(SealedRecords.BATCH, term, batch.id(),
        DurableJsonWriter.write(batch, traces)) : null;
    byte[] baseText = base == null ? null : sealed.seal(SealedRecords.BASE, term, batch.id(),
        DurableJsonWriter.write(base, traces));
    CompletionStage<Boolean> write;
    try {
      write = store.write(pool, term, batch.id(), text, baseText);
    } catch (HazelcastInstanceNotActiveException e) {
      return Future.failedFuture(e);
    }
    write.whenComplete((ok, error) -> {
      if (error != null) {
        written.fail(error);
      } else if (!ok) {
        written.fail(new IllegalStateException("term " + term + " is no longer the pool's"));
      } else {
        written.complete();
      }
    });
    return written.future();
  }

  /**
   * Batches in flight at once: the store keeps them in order whatever order they arrive in, so
   * a leader need not wait for one write's round trip before the next.
   */
  /** {@code value} of {@link #WRITES_PROPERTY}, or 4 when unset; refused outside 1 to 16. */
  static int writesInFlight(String value) {
    if (value == null) {
      return 4;
    }
    int n;
    try {
      n = Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      n = 0;
    }
    if (n < 1 || n > 16) {
      throw new IllegalArgumentException(WRITES_PROPERTY + ": must be an integer from 1 to 16 (was "
          + value + ")");
    }
    return n;
  }

  @Override
  public int writesInFlight() {
    return WRITES_IN_FLIGHT;
  }

  @Override
  public void resign(long term) {
    context.runOnContext(v -> {
      if (leading == term) {
        leading = 0;
      }
      try {
        store.resign(pool, node, term).whenComplete((ok, error) -> { });
      } catch (HazelcastInstanceNotActiveException e) {
        // Gone with its member: nothing to give back.
      }
    });
  }

  @Override
  public HaStatus status(long term) {
    // Available: a majority remains when one member is lost.
    return new HaStatus(true, members() >= Math.max(AVAILABLE_MEMBERS, quorum + 1), node, term);
  }

  @Override
  public Future<Void> stop() {
    stopped = true;
    scheduler.cancel(timer);
    try {
      hazelcast.getCluster().removeMembershipListener(membershipRegistration);
      hazelcast.getLifecycleService().removeLifecycleListener(lifecycleRegistration);
    } catch (RuntimeException e) {
      // Hazelcast is shutting down already: the listeners go with it.
    }
    return Future.succeededFuture();
  }
}
