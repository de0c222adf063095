package io.percolate.scheduler.metrics;

import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.QueryState;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.QefSummary;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.scheduler.registry.WorkAccount;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.impl.MetricsRecordImpl;
import org.apache.hadoop.metrics2.impl.MetricsSystemImpl;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

final class TestTlsMetrics {

    /** Every metric of one snapshot of {@code source}, by name. */
    static Map<String, Number> read(MetricsSource source) {
        MetricsCollectorImpl collector = new MetricsCollectorImpl();
        source.getMetrics(collector, true);
        List<MetricsRecordImpl> records = collector.getRecords();
        assertEquals(1, records.size());
        assertEquals(TlsMetrics.SOURCE_NAME, records.get(0).name());
        Map<String, Number> values = new HashMap<>();
        for (AbstractMetric m : records.get(0).metrics()) {
            values.put(m.name(), m.value());
        }
        return values;
    }

    private static QefSummary order(String head, Rule rule, int active, int slow) {
        Placement first = new Placement(new QueryState(head, 0, 1, 1, 1, 1, 0), rule);
        Map<Rule, Integer> placedBy = new EnumMap<>(Rule.class);
        placedBy.put(Rule.SWRD, active - 1);
        placedBy.merge(rule, 1, Integer::sum);
        return new QefSummary(0.25, 4 / 3.0, 12, 3, 5, placedBy, active, slow,
                Map.of(DescriptorStatus.LOADED, 1, DescriptorStatus.LOADING, 1, DescriptorStatus.UNTAGGED, active - 2),
                Optional.of(first));
    }

    private static QueryView retired(String id, Optional<WorkAccount> work, JobForecast... forecasts) {
        return new QueryView(id, "alice", DescriptorStatus.LOADED, "", Optional.empty(), Map.of(), Set.of(), List.of(),
                0, OptionalLong.of(1), Optional.empty(), work, List.of(forecasts), Map.of(), 0);
    }

    /** A job's forecast; the metrics read only its times. */
    private static JobForecast forecast(String stage, double predicted, double observed) {
        return new JobForecast(stage, predicted, observed, new JobForecast.Tasks(0, 0, 0, 0, 0, 1, Double.POSITIVE_INFINITY, 0));
    }

    @Test
    void beforeAnyOrdering_everythingIsZeroAndDIsOne() {
        Map<String, Number> m = read(new TlsMetrics());

        assertEquals(0, m.get("ActiveQueries"));
        assertEquals(1.0, m.get("Threshold"));
        assertEquals(0L, m.get("QueriesRetired"));
        assertEquals(0.0, m.get("PredictionErrorMean"));
        assertEquals(TlsMetric.values().length, m.size(), "every declared metric is published: " + m.keySet());
    }

    @Test
    void gauges_followTheLastOrdering() {
        TlsMetrics metrics = new TlsMetrics();
        metrics.ordered(order("q1", Rule.URGENT, 5, 2));

        Map<String, Number> m = read(metrics);
        assertEquals(5, m.get("ActiveQueries"));
        assertEquals(1, m.get("QueriesByDag"));
        assertEquals(1, m.get("QueriesLoading"));
        assertEquals(3, m.get("QueriesAlone"));
        assertEquals(2, m.get("SlowQueries"));
        assertEquals(0.25, m.get("Load"));
        assertEquals(4 / 3.0, m.get("Threshold"));
        assertEquals(12.0, m.get("Capacity"));
        assertEquals(3.0, m.get("ApplicationMasterContainers"));
        assertEquals(5.0, m.get("TaskParallelism"));
        assertEquals(1, m.get("PlacedUrgent"));
        assertEquals(4, m.get("PlacedSwrd"));
        assertEquals(0, m.get("PlacedSlowest"));
    }

    @Test
    void decisions_countChangesOfTheHeadNotOrderings() {
        TlsMetrics metrics = new TlsMetrics();
        metrics.ordered(order("q1", Rule.SWRD, 3, 0));
        metrics.ordered(order("q1", Rule.SWRD, 3, 0)); // same head: no new decision
        metrics.ordered(order("q2", Rule.SLOWEST, 3, 1));
        metrics.ordered(order("q1", Rule.SWRD, 3, 0));
        metrics.ordered(new QefSummary(0, 1, 12, 0, 12, Map.of(), 0, 0, Map.of(), Optional.empty()));
        metrics.ordered(order("q1", Rule.SWRD, 3, 0)); // after an empty order q1 heads again

        Map<String, Number> m = read(metrics);
        assertEquals(3L, m.get("DecisionsSwrd"));
        assertEquals(1L, m.get("DecisionsSlowest"));
        assertEquals(0L, m.get("DecisionsUrgent"));
        assertEquals(0L, m.get("DecisionsFifo"));
    }

    @Test
    void retirementsAndDescriptorOutcomes_areCounted_predictionErrorIsTheMeanOverQueriesWithWork() {
        TlsMetrics metrics = new TlsMetrics();
        metrics.descriptorSettled(DescriptorStatus.LOADED);
        metrics.descriptorSettled(DescriptorStatus.LOADED);
        metrics.descriptorSettled(DescriptorStatus.MISSING);
        metrics.descriptorSettled(DescriptorStatus.MALFORMED);
        metrics.descriptorSettled(DescriptorStatus.REJECTED);
        metrics.retired(retired("q1", Optional.of(new WorkAccount(2, 120, 100, 100)))); // 20 %
        metrics.retired(retired("q2", Optional.of(new WorkAccount(1, 30, 60, 60)),      // 50 %
                forecast("stage-1", 40, 50), forecast("stage-2", 30, 20)));  // 20 %, 50 %
        metrics.retired(retired("q3", Optional.empty(), forecast("stage-1", 10, 10))); // 0 %

        Map<String, Number> m = read(metrics);
        assertEquals(2L, m.get("DescriptorsLoaded"));
        assertEquals(1L, m.get("DescriptorsMissing"));
        assertEquals(1L, m.get("DescriptorsMalformed"));
        assertEquals(1L, m.get("DescriptorsRejected"));
        assertEquals(3L, m.get("QueriesRetired"));
        assertEquals(2L, m.get("PredictionSamples"));
        assertEquals(150L, m.get("PredictedWorkSeconds"));
        assertEquals(160L, m.get("ObservedWorkSeconds"));
        assertEquals(0.35, m.get("PredictionErrorMean").doubleValue(), 1e-12);
        assertEquals(3L, m.get("JobForecasts"));
        assertEquals(0.7 / 3, m.get("JobTimeErrorMean").doubleValue(), 1e-12);
    }

    @Test
    void register_replacesAStaleSourceAndUnregisterLeavesANewerOneAlone() {
        MetricsSystemImpl system = new MetricsSystemImpl();
        system.init("Test");
        try {
            TlsMetrics stale = new TlsMetrics();
            stale.register(system);
            TlsMetrics current = new TlsMetrics();
            current.register(system);
            assertSame(current, system.getSource(TlsMetrics.SOURCE_NAME));

            stale.unregister();
            assertSame(current, system.getSource(TlsMetrics.SOURCE_NAME), "the stale one must not remove the live one");
            current.unregister();
            assertNull(system.getSource(TlsMetrics.SOURCE_NAME));
        } finally {
            system.shutdown();
        }
    }
}
