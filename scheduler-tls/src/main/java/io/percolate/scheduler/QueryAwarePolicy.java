package io.percolate.scheduler;

import io.percolate.scheduler.registry.AppRank;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy;

import java.io.Serializable;
import java.util.Comparator;

/**
 * The FairScheduler {@code SchedulingPolicy} that orders a queue's applications by their
 * queries ({@link AppRank#ORDER}); shares, headroom and the order of child queues stay those of
 * the fair-share policy. Name it in fair-scheduler.xml as
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
     * A total order: ranked applications by {@link AppRank#ORDER}, ties and unranked cases
     * broken by fair share and finally by name, so two distinct schedulables never compare equal.
     */
    private static final class QueryOrder implements Comparator<Schedulable>, Serializable {
        private static final long serialVersionUID = 1L;
        private final Comparator<Schedulable> fairShare = new FairSharePolicy().getComparator();

        @Override
        public int compare(Schedulable a, Schedulable b) {
            if (a instanceof FSAppAttempt x && b instanceof FSAppAttempt y) {
                int byRank = AppRank.ORDER.compare(rank(x), rank(y));
                if (byRank != 0) {
                    return byRank;
                }
            } else if (a instanceof FSAppAttempt != b instanceof FSAppAttempt) {
                return a instanceof FSAppAttempt ? -1 : 1; // never mixed in one queue; keep the order total anyway
            }
            int byShare = fairShare.compare(a, b);
            return byShare != 0 ? byShare : a.getName().compareTo(b.getName());
        }

        private static AppRank rank(FSAppAttempt app) {
            return SchedulerDirectory.of(app.getApplicationId().getClusterTimestamp())
                    .map(s -> s.rank(app))
                    .orElseGet(() -> AppRank.alone(app.getApplicationId().toString(), 0, 1));
        }
    }
}
