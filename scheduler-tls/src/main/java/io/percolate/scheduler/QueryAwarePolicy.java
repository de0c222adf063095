package io.percolate.scheduler;

import io.percolate.scheduler.registry.AppRank;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy;

import java.io.Serializable;
import java.util.Comparator;

/**
 * The FairScheduler {@code SchedulingPolicy} that orders a queue's applications by their
 * queries ({@link AppRank#compare}: QEF between queries, LoDFA inside one); shares, headroom
 * and the order of child queues stay those of the fair-share policy. Name it in fair-scheduler.xml as
 * {@code <schedulingPolicy>io.percolate.scheduler.QueryAwarePolicy</schedulingPolicy>}.
 *
 * <p>Stateless: FairScheduler shares one instance per class across the JVM, so all state lives
 * in the {@link TlsScheduler} that owns each application. Under a stock FairScheduler the
 * policy orders applications as the fair-share policy does.
 */
public final class QueryAwarePolicy extends FairSharePolicy {
    public static final String NAME = "tls";

    private static final Comparator<Schedulable> COMPARATOR = new QueryOrder();

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Comparator<Schedulable> getComparator() {
        return COMPARATOR;
    }

    /**
     * A total order on (ranked first, rank, fair share, name): applications of a
     * {@link TlsScheduler} are ranked ({@link AppRank#compare}); without one (a stock
     * FairScheduler) applications, like child queues, go by fair share; the name breaks any
     * tie, so two distinct schedulables never compare equal.
     */
    private static final class QueryOrder implements Comparator<Schedulable>, Serializable {
        private static final long serialVersionUID = 1L;
        private final Comparator<Schedulable> fairShare = new FairSharePolicy().getComparator();

        @Override
        public int compare(Schedulable a, Schedulable b) {
            // the common case first: both ranked at the last update of the scheduler found last
            TlsScheduler last = SchedulerDirectory.last();
            if (last != null && a instanceof FSAppAttempt first && b instanceof FSAppAttempt second) {
                int byRank = last.compareRanked(first, second);
                if (byRank != TlsScheduler.UNRANKED) {
                    return byRank != 0 ? byRank : byShareThenName(a, b);
                }
            }
            TlsScheduler x = scheduler(a);
            TlsScheduler y = scheduler(b);
            if ((x == null) != (y == null)) {
                return x != null ? -1 : 1;
            }
            if (x != null && x == y) {
                int byRank = x.compare((FSAppAttempt) a, (FSAppAttempt) b);
                if (byRank != 0) {
                    return byRank;
                }
            }
            return byShareThenName(a, b);
        }

        private int byShareThenName(Schedulable a, Schedulable b) {
            int byShare = fairShare.compare(a, b);
            return byShare != 0 ? byShare : a.getName().compareTo(b.getName());
        }

        /** The TlsScheduler owning an application; null for a queue or under a stock FairScheduler. */
        private static TlsScheduler scheduler(Schedulable s) {
            return s instanceof FSAppAttempt app ? SchedulerDirectory.find(app.getApplicationId().getClusterTimestamp()) : null;
        }
    }
}
