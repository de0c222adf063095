package io.percolate.scheduler.metrics;

import io.percolate.scheduler.qef.Rule;
import org.apache.hadoop.metrics2.MetricsInfo;

import java.util.Locale;

/**
 * Every metric the scheduler publishes, named once: the JMX attribute and the metrics2 record
 * field are the enum constant's {@link #name()} in Hadoop's CamelCase. Adding one is a constant
 * here and a line in {@link TlsMetrics#getMetrics}.
 */
enum TlsMetric implements MetricsInfo {
    // gauges: QEF's last ordering (at most one scheduler update interval old)
    ActiveQueries("Active queries"),
    QueriesByDag("Active queries scheduled by their descriptor's DAG"),
    QueriesLoading("Active queries whose descriptor is still being read (scheduled alone meanwhile)"),
    QueriesAlone("Active queries scheduled alone: untagged, or descriptor missing, malformed or rejected"),
    SlowQueries("Active queries whose slowdown exceeds the threshold D (L_slow plus the urgent ones)"),
    Load("Measured system load rho of the last ordering"),
    Threshold("Slowdown threshold D = 1/(1-rho) of the last ordering"),
    Capacity("Containers the cluster can run at once, as of the last ordering"),
    ApplicationMasterContainers("Of those, the containers running ApplicationMasters held; rho is task work over the rest"),
    TaskParallelism("Tasks the cluster runs at full speed, as learned from finished jobs' times under load (Capacity until contention is seen)"),
    PlacedFloor("Active queries placed by the FLOOR rule (the oldest, below its floor share) in the last ordering"),
    PlacedUrgent("Active queries placed by the URGENT rule (slowdown over 2D) in the last ordering"),
    PlacedSlowest("Active queries placed by the SLOWEST rule (L_slow over its limit) in the last ordering"),
    PlacedSwrd("Active queries placed by the SWRD rule (smallest remaining WRD) in the last ordering"),
    PlacedFifo("Active queries placed first come, first served (QEF disabled) in the last ordering"),
    HeldApplicationMasters("ApplicationMasters held back so that each queue keeps AM room for its leading queries"),
    JobsKeptFromStarting("Jobs kept from starting their tasks while the jobs before them fill the cluster's cores (task gate)"),
    JobsWaitingForInput("Jobs passed over while the cache tier copies their input (MixApart's Algorithm 1)"),
    // counters since the scheduler started
    DecisionsFloor("Times a query reached the head of QEF's order by the FLOOR rule"),
    DecisionsUrgent("Times a query reached the head of QEF's order by the URGENT rule"),
    DecisionsSlowest("Times a query reached the head of QEF's order by the SLOWEST rule"),
    DecisionsSwrd("Times a query reached the head of QEF's order by the SWRD rule"),
    DecisionsFifo("Times a query reached the head of QEF's order first come, first served"),
    QueriesRetired("Queries that left the active set"),
    InputReports("Reports of coming jobs' input readiness read from the xdfs manager (0 unless"
            + " percolate.scheduler.input.manager-address is set)"),
    ReservationsReleased("Node reservations of applications not leading their query-ordered queue, released so that"
            + " the node went by the order"),
    DescriptorsLoaded("Descriptors read and honoured"),
    DescriptorsMissing("Tagged queries with no descriptor after every read"),
    DescriptorsMalformed("Descriptors refused as unreadable, oversized, of unknown version or with an invalid DAG"),
    DescriptorsRejected("Descriptors or query tags refused because another user owns or names them"),
    PredictionSamples("Retired queries whose predicted work was compared with their observed work"),
    PredictedWorkSeconds("Descriptor WRD of the compared jobs, container-seconds"),
    ObservedWorkSeconds("Container-seconds the compared jobs' task containers ran"),
    // gauge over the counters above
    PredictionErrorMean("Mean over compared queries of |predicted - observed| / observed work (0.14 = 14 %)"),
    JobForecasts("Finished jobs of retired queries whose forecast time was compared with the time they took"),
    JobTimeErrorMean("Mean over those jobs of |forecast - taken| / taken time (0.14 = 14 %)");

    private final String description;

    TlsMetric(String description) {
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }

    /** The gauge counting the queries {@code rule} placed in the last ordering. */
    static TlsMetric placed(Rule rule) {
        return valueOf("Placed" + camel(rule));
    }

    /** The counter of head-of-order decisions by {@code rule}. */
    static TlsMetric decisions(Rule rule) {
        return valueOf("Decisions" + camel(rule));
    }

    private static String camel(Rule rule) {
        String name = rule.name();
        return name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT);
    }
}
