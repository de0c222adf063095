package io.percolate.scheduler.metrics;

import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.registry.DescriptorStatus;
import io.percolate.scheduler.registry.QefSummary;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.scheduler.registry.RegistryListener;
import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.WorkAccount;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The scheduler's metrics2 source, {@value #SOURCE_NAME}: over JMX the MBean
 * {@code Hadoop:service=ResourceManager,name=PercolateTlsScheduler}, and in every configured
 * metrics2 sink. Metric names and meanings are listed in {@link TlsMetric}.
 *
 * <p>It listens to the registry, so it is fed on the scheduling path (under the scheduler's
 * lock) with constant work per event, and it never takes that lock when the metrics system or
 * JMX reads it: gauges come from QEF's last ordering and are at most one update interval old.
 *
 * <p>Definitions:
 * <ul>
 * <li><b>Decisions by rule</b> count changes of the head of QEF's order: each time a different
 *     query becomes the one served first, the rule that put it there is counted once. Counting
 *     every placement of every ordering would only measure how often the scheduler updates.
 *     The {@code Placed*} gauges give the rules of the whole current order.</li>
 * <li><b>Prediction error so far</b> is job-level work, not response time (which includes
 *     waiting and so says nothing about the model): for each retired query with an honoured
 *     descriptor, its finished jobs' estimated WRD against the container-seconds their task
 *     containers ran ({@link WorkAccount}); {@code PredictionErrorMean} is the mean of
 *     |predicted - observed| / observed over those queries since the scheduler started.
 *     {@code PredictedWorkSeconds} and {@code ObservedWorkSeconds} let a monitoring system
 *     compute a work-weighted error instead.</li>
 * <li><b>Job time error</b> checks the time model as the scheduler uses it: each finished job's
 *     forecast time, made before its first task ran, against the time it took from when it
 *     could start ({@link JobForecast}); waiting behind other queries counts against it.</li>
 * </ul>
 */
public final class TlsMetrics implements MetricsSource, RegistryListener {
    public static final String SOURCE_NAME = "PercolateTlsScheduler";
    private static final String DESCRIPTION = "Percolate two-level query scheduler (QEF and LoDFA)";
    private static final Logger LOG = LoggerFactory.getLogger(TlsMetrics.class);

    private volatile QefSummary last = new QefSummary(0, 1, 0, 0, 0, Map.of(), 0, 0, Map.of(), Optional.empty());
    /** the key of the query at the head of the last order; only {@link #ordered} touches it */
    private String head;
    private final Map<Rule, AtomicLong> decisions = new EnumMap<>(Rule.class);
    private final Map<DescriptorStatus, AtomicLong> settled = new EnumMap<>(DescriptorStatus.class);
    private final AtomicLong retired = new AtomicLong();
    private final AtomicLong reservationsReleased = new AtomicLong();
    private volatile int heldApplicationMasters;
    private volatile int jobsKeptFromStarting;
    private volatile int jobsWaitingForInput;
    private volatile LongSupplier inputReports = () -> 0;
    private final Prediction prediction = new Prediction();
    private MetricsSystem system;

    /** Sums of the work accounts of retired queries; read and written as a whole. */
    private static final class Prediction {
        private long samples;
        private double predicted;
        private double observed;
        private double errorSum;
        private long jobs;
        private double jobErrorSum;

        synchronized void add(JobForecast job) {
            jobs++;
            jobErrorSum += job.relativeError();
        }

        synchronized void add(WorkAccount work) {
            samples++;
            predicted += work.predictedSeconds();
            observed += work.observedSeconds();
            errorSum += work.relativeError();
        }

        synchronized void report(MetricsRecordBuilder record) {
            record.addCounter(TlsMetric.PredictionSamples, samples)
                    .addCounter(TlsMetric.PredictedWorkSeconds, Math.round(predicted))
                    .addCounter(TlsMetric.ObservedWorkSeconds, Math.round(observed))
                    .addGauge(TlsMetric.PredictionErrorMean, samples == 0 ? 0.0 : errorSum / samples)
                    .addCounter(TlsMetric.JobForecasts, jobs)
                    .addGauge(TlsMetric.JobTimeErrorMean, jobs == 0 ? 0.0 : jobErrorSum / jobs);
        }
    }

    public TlsMetrics() {
        for (Rule rule : Rule.values()) {
            decisions.put(rule, new AtomicLong());
        }
        for (DescriptorStatus status : DescriptorStatus.values()) {
            settled.put(status, new AtomicLong());
        }
    }

    @Override
    public void ordered(QefSummary summary) {
        last = summary;
        Optional<Placement> first = summary.head();
        String key = first.map(p -> p.query().key()).orElse(null);
        if (key != null && !key.equals(head)) {
            decisions.get(first.get().rule()).incrementAndGet();
        }
        head = key;
    }

    /** A node reservation was released because its application did not lead its queue's query order. */
    public void reservationReleased() {
        reservationsReleased.incrementAndGet();
    }

    /** ApplicationMasters the scheduler holds back now (AM admission). */
    public void heldApplicationMasters(int count) {
        heldApplicationMasters = count;
    }

    /** Jobs the task gate keeps from starting now. */
    public void jobsKeptFromStarting(int count) {
        jobsKeptFromStarting = count;
    }

    public void jobsWaitingForInput(int count) {
        jobsWaitingForInput = count;
    }

    /** Where the count of input-readiness reports read comes from. */
    public void inputReports(LongSupplier count) {
        inputReports = count;
    }

    @Override
    public void descriptorSettled(DescriptorStatus status) {
        settled.get(status).incrementAndGet();
    }

    @Override
    public void retired(QueryView query) {
        retired.incrementAndGet();
        query.work().ifPresent(prediction::add);
        query.forecasts().forEach(prediction::add);
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        QefSummary s = last;
        int loaded = s.withStatus(DescriptorStatus.LOADED);
        int loading = s.withStatus(DescriptorStatus.LOADING);
        MetricsRecordBuilder record = collector.addRecord(SOURCE_NAME).setContext("yarn")
                .tag(Interns.info("Scheduler", "The scheduler publishing these metrics"), "TlsScheduler")
                .addGauge(TlsMetric.ActiveQueries, s.active())
                .addGauge(TlsMetric.QueriesByDag, loaded)
                .addGauge(TlsMetric.QueriesLoading, loading)
                .addGauge(TlsMetric.QueriesAlone, s.active() - loaded - loading)
                .addGauge(TlsMetric.SlowQueries, s.slow())
                .addGauge(TlsMetric.Load, s.load())
                .addGauge(TlsMetric.Threshold, s.threshold())
                .addGauge(TlsMetric.Capacity, s.capacity())
                .addGauge(TlsMetric.ApplicationMasterContainers, s.masters())
                .addGauge(TlsMetric.TaskParallelism, s.parallelism())
                .addGauge(TlsMetric.HeldApplicationMasters, heldApplicationMasters)
                .addGauge(TlsMetric.JobsKeptFromStarting, jobsKeptFromStarting)
                .addGauge(TlsMetric.JobsWaitingForInput, jobsWaitingForInput);
        for (Rule rule : Rule.values()) {
            record.addGauge(TlsMetric.placed(rule), s.placedBy(rule));
            record.addCounter(TlsMetric.decisions(rule), decisions.get(rule).get());
        }
        record.addCounter(TlsMetric.QueriesRetired, retired.get())
                .addCounter(TlsMetric.InputReports, inputReports.getAsLong())
                .addCounter(TlsMetric.ReservationsReleased, reservationsReleased.get())
                .addCounter(TlsMetric.DescriptorsLoaded, settled.get(DescriptorStatus.LOADED).get())
                .addCounter(TlsMetric.DescriptorsMissing, settled.get(DescriptorStatus.MISSING).get())
                .addCounter(TlsMetric.DescriptorsMalformed, settled.get(DescriptorStatus.MALFORMED).get())
                .addCounter(TlsMetric.DescriptorsRejected, settled.get(DescriptorStatus.REJECTED).get());
        prediction.report(record);
    }

    /**
     * Registers under {@value #SOURCE_NAME}. The metrics system refuses a second source of that
     * name; a ResourceManager runs one scheduler and unregisters it when it stops, so a source
     * still there belongs to a scheduler of this JVM that never stopped (tests, an aborted
     * start) and is replaced. Metrics are not worth failing the ResourceManager's start for.
     */
    public synchronized void register(MetricsSystem metricsSystem) {
        try {
            if (metricsSystem.getSource(SOURCE_NAME) != null) {
                LOG.info("Percolate: replacing a stale metrics source {}", SOURCE_NAME);
                metricsSystem.unregisterSource(SOURCE_NAME);
            }
            metricsSystem.register(SOURCE_NAME, DESCRIPTION, this);
            system = metricsSystem;
        } catch (RuntimeException e) { // MetricsException, or an MBean server's complaint
            LOG.warn("Percolate: scheduler metrics not published: {}", e.toString());
        }
    }

    /**
     * Unregisters the source if it is still this one (a newer scheduler's is left alone). Called
     * while the scheduler stops: a failure is logged, so the rest of the stop still happens.
     */
    public synchronized void unregister() {
        try {
            if (system != null && system.getSource(SOURCE_NAME) == this) {
                system.unregisterSource(SOURCE_NAME);
            }
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not unregister the scheduler metrics: {}", e.toString());
        } finally {
            system = null;
        }
    }
}
