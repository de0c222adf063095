package io.percolate.bench.cost;

import io.percolate.scheduler.QueryAwarePolicy;
import io.percolate.scheduler.TlsScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy;

/** A scheduler the benchmark measures: its class and the policy its queues use. */
enum SchedulerUnderTest {
    TLS("tls", TlsScheduler.class, QueryAwarePolicy.class.getName()),
    FAIR("fair", FairScheduler.class, FairSharePolicy.NAME);

    /** the key of its section in result.json */
    final String key;
    final Class<? extends FairScheduler> schedulerClass;
    /** as fair-scheduler.xml names it */
    final String queuePolicy;

    SchedulerUnderTest(String key, Class<? extends FairScheduler> schedulerClass, String queuePolicy) {
        this.key = key;
        this.schedulerClass = schedulerClass;
        this.queuePolicy = queuePolicy;
    }

    /** The scheduler whose key is {@code key}. */
    static SchedulerUnderTest named(String key) {
        for (SchedulerUnderTest s : values()) {
            if (s.key.equals(key)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown scheduler '" + key + "': tls or fair");
    }
}
