package io.percolate.estimate;

import io.percolate.model.ColumnRef;
import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;
import io.percolate.selectivity.Cardinalities;
import io.percolate.selectivity.ColumnStatisticsSource;
import io.percolate.selectivity.JoinEstimate;
import io.percolate.selectivity.KeyDistribution;
import io.percolate.selectivity.OperatorCardinality;
import io.percolate.selectivity.Selectivity;
import io.percolate.selectivity.SelectivityEstimator;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.StatisticsSettings;
import io.percolate.timing.TimeModel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Sizes from column statistics (dissertation 5.2). Each scanned table's rows pass its filters
 * (predicate selectivity); the job's major operator then shapes them: a join by eq. 5.1 over
 * the key histograms of its sides, a group-by by its keys' distinct counts with map-side
 * combining (S_comb), an extract keeps its rows; reduce-side filters and a LIMIT apply last. Bytes are rows
 * times row width. A job's input is its tables and its parents' outputs, so the estimates
 * propagate down the DAG (IS and FS of every job). When the hook read the job's operators one by
 * one ({@link JobShape#tree()}), {@link OperatorRows} follows them instead — a join and the
 * aggregation after it in one reducer, semi and outer joins, columns traced across jobs, rows as
 * wide as the columns the shuffle and each sink carry ({@link RowWidths}) — and the
 * major-operator model stays the fallback.
 *
 * <p>Where statistics are missing a table's rows come from the metastore's row count, else from
 * its bytes at {@link #DEFAULT_ROW_BYTES}, a key of unknown distribution is taken as a foreign
 * key meeting the other side's keys, and the estimate is marked LOW; with statistics for every
 * table and key it is MEDIUM (HIGH needs a trained time model). Task counts and times follow the
 * same rules as {@link CoarseEstimator}.
 */
public final class StatisticalEstimator implements DagEstimator {
    private static final Logger LOG = LoggerFactory.getLogger(StatisticalEstimator.class);
    /** Row width assumed for a table with neither statistics nor a row count. */
    static final double DEFAULT_ROW_BYTES = CoarseEstimator.DEFAULT_ROW_BYTES;
    /** Width of a group-by output row per key (plus one aggregate): keys and aggregates are narrow. */
    static final double GROUP_COLUMN_BYTES = 12;

    private final ColumnStatisticsSource statistics;
    private final SelectivityEstimator selectivity;
    private final StatisticsSettings statisticsSettings;
    private final CoarseEstimator.Settings settings;
    private final Optional<TimeModel> model;
    private final OperatorRows operators;

    public StatisticalEstimator(ColumnStatisticsSource statistics, StatisticsSettings statisticsSettings,
                                CoarseEstimator.Settings settings) {
        this(statistics, statisticsSettings, settings, Optional.empty());
    }

    /** @param model the trained task-time model, if one was trained (see {@link CoarseEstimator#timed}) */
    public StatisticalEstimator(ColumnStatisticsSource statistics, StatisticsSettings statisticsSettings,
                                CoarseEstimator.Settings settings, Optional<TimeModel> model) {
        this.statistics = requireNonNull(statistics, "statistics");
        this.statisticsSettings = requireNonNull(statisticsSettings, "statisticsSettings");
        this.settings = requireNonNull(settings, "settings");
        this.model = requireNonNull(model, "model");
        this.selectivity = new SelectivityEstimator(statistics, statisticsSettings);
        this.operators = new OperatorRows(statistics, statisticsSettings);
    }

    /**
     * What flows out of a job: rows, their width, the distinct values of the base columns that
     * pass through it (lower-case name → distinct values), the lineage of its joins and group-bys, and whether
     * statistics backed every step. The columns let a later job's join or group-by key find its
     * distribution.
     */
    private record Flow(double rows, double rowBytes, Map<String, Double> columns, Map<String, OperatorRows.Sunk> sinks,
                        Map<String, Double> operatorRows, Map<String, Lineage> remembered, JobVolume volume,
                        JobEstimate estimate, boolean measured) {
    }

    /** One input of a job's operator: rows after the scan's filters, their width, the key's distribution if known. */
    private record Side(double rows, double rowBytes, Optional<KeyDistribution> key) {
    }

    @Override
    public Map<String, JobEstimate> estimate(List<JobShape> jobs, Map<String, ObservedOutput> observed) {
        Map<String, JobEstimate> estimates = new LinkedHashMap<>();
        ParentsFirst.<Flow>estimate(jobs, (job, parents) -> observe(estimateOne(job, parents), observed.get(job.stageId())))
                .forEach((stage, flow) -> estimates.put(stage, flow.estimate()));
        return estimates;
    }

    /**
     * Rows each job is expected to write, by stage: the IS/FS propagation alone, for measuring
     * the cardinality estimates against the rows the jobs really wrote.
     */
    public Map<String, Double> outputRows(List<JobShape> jobs) {
        Map<String, Double> rows = new LinkedHashMap<>();
        ParentsFirst.<Flow>estimate(jobs, this::estimateOne).forEach((stage, flow) -> rows.put(stage, flow.rows()));
        return rows;
    }

    /** What each job is expected to read, shuffle and write, by stage: the time model's features before they are timed. */
    public Map<String, JobVolume> volumes(List<JobShape> jobs) {
        Map<String, JobVolume> volumes = new LinkedHashMap<>();
        ParentsFirst.<Flow>estimate(jobs, this::estimateOne).forEach((stage, flow) -> volumes.put(stage, flow.volume()));
        return volumes;
    }

    /**
     * Rows out of each operator, by Hive's operator id ({@code FIL_16}), for the jobs whose
     * operators the hook read one by one: what each filter, join and group-by is expected to put out.
     */
    public Map<String, Double> operatorRows(List<JobShape> jobs) {
        Map<String, Double> rows = new LinkedHashMap<>();
        ParentsFirst.<Flow>estimate(jobs, this::estimateOne).values().forEach(flow -> rows.putAll(flow.operatorRows()));
        return rows;
    }

    /**
     * How the rows of each join and group-by are made, by Hive's operator id ({@code JOIN_12}), for
     * the jobs whose operators the hook read one by one: what its outcome is remembered under once
     * it ran.
     */
    public Map<String, Lineage> outcomeLineages(List<JobShape> jobs) {
        Map<String, Lineage> lineages = new LinkedHashMap<>();
        ParentsFirst.<Flow>estimate(jobs, this::estimateOne).values().forEach(flow -> lineages.putAll(flow.remembered()));
        return lineages;
    }

    /**
     * A finished job's flow as it really was: its rows, and their width from the bytes it wrote
     * (else the estimated width); no column can have more distinct values than there are rows.
     */
    private static Flow observe(Flow estimated, ObservedOutput actual) {
        if (actual == null) {
            return estimated;
        }
        double rows = actual.rows();
        double rowBytes = rows > 0 && actual.bytes().isPresent() ? actual.bytes().getAsLong() / rows : estimated.rowBytes();
        Map<String, Double> columns = new HashMap<>();
        estimated.columns().forEach((column, distinct) -> columns.put(column, Math.min(distinct, rows)));
        long bytes = actual.bytes().orElse(Math.round(rows * rowBytes));
        double scale = estimated.rows() > 0 ? rows / estimated.rows() : 0;
        Map<String, OperatorRows.Sunk> sinks = new HashMap<>();
        estimated.sinks().forEach((path, sunk) -> sinks.put(path, sunk.scaled(scale)));
        return new Flow(rows, rowBytes, Map.copyOf(columns), Map.copyOf(sinks), estimated.operatorRows(), estimated.remembered(),
                estimated.volume(), estimated.estimate().withOutputBytes(bytes), true);
    }

    private static List<JobEstimate> estimates(List<Flow> parents) {
        return parents.stream().map(Flow::estimate).toList();
    }

    private Flow estimateOne(JobShape job, List<Flow> parents) {
        if (job.scans().isEmpty() && job.tableBytes() > 0) {
            // a job described by its sizes alone: nothing for statistics to work on
            JobVolume v = CoarseEstimator.volume(settings, job, CoarseEstimator.inputs(job, estimates(parents)));
            JobEstimate e = CoarseEstimator.timed(settings, model, job, v, JobEstimate.Confidence.LOW);
            return new Flow(v.outputRows(), DEFAULT_ROW_BYTES, Map.of(), Map.of(), Map.of(), Map.of(), v, e, false);
        }
        boolean measured = true;
        List<CombinedSplits.Input> inputs = CoarseEstimator.inputs(job, estimates(parents));
        double readRows = 0; // what the maps read, before any filter: what MAP_INPUT_RECORDS counts
        List<Side> sides = new ArrayList<>();
        Map<String, Double> columns = new HashMap<>();
        Map<String, Double> tableRows = new HashMap<>();
        for (TableScan scan : job.scans()) {
            Optional<Double> counted = statisticsRows(scan);
            measured &= counted.isPresent();
            double rows = counted.orElseGet(() -> scan.table().rows() > 0 ? scan.table().rows()
                    : scan.table().bytes() / DEFAULT_ROW_BYTES);
            tableRows.put(scan.table().name(), rows);
            double width = rows > 0 && scan.table().bytes() > 0 ? scan.table().bytes() / rows : DEFAULT_ROW_BYTES;
            Selectivity s = selectivity.estimateAll(scan.filters());
            measured &= s.confidence() != Selectivity.Confidence.LOW;
            Optional<KeyDistribution> key = Optional.empty();
            for (String column : scan.columns()) {
                Optional<ColumnStatistics> c = statistics.find(new ColumnRef(scan.table().name(), column));
                if (c.isPresent()) {
                    KeyDistribution d = KeyDistribution.of(c.get(), statisticsSettings.preferredHistogram())
                            .filtered(s.value());
                    columns.merge(lower(column), d.distinct(), Math::min);
                    if (key.isEmpty() && isKey(job, column)) {
                        key = Optional.of(d);
                    }
                }
            }
            sides.add(new Side(rows * s.value(), width, key));
            readRows += rows;
        }
        for (Flow p : parents) {
            measured &= p.measured();
            p.columns().forEach((column, distinct) -> columns.merge(column, distinct, Math::min));
            Optional<KeyDistribution> key = job.keys().stream().map(StatisticalEstimator::lower)
                    .filter(p.columns()::containsKey).findFirst()
                    .map(k -> KeyDistribution.ofCounts(p.rows(), p.columns().get(k)));
            sides.add(new Side(p.rows(), p.rowBytes(), key));
            readRows += p.rows();
        }
        double inputRows = sides.stream().mapToDouble(Side::rows).sum();
        double inputRowBytes = inputRows > 0 ? sides.stream().mapToDouble(s -> s.rows() * s.rowBytes()).sum() / inputRows
                : DEFAULT_ROW_BYTES;
        JobVolume sized = CoarseEstimator.volume(settings, job, inputs, readRows, 0, 0, 0, 0);
        int maps = sized.mapTasks();

        OperatorCardinality operator;
        double outRowBytes;
        switch (job.operator()) {
            case JOIN -> {
                JoinEstimate join = join(sides);
                operator = join.operator(inputRows, 0);
                outRowBytes = sides.stream().mapToDouble(Side::rowBytes).sum();
            }
            case GROUP_BY -> {
                List<Double> distincts = job.keys().stream()
                        .map(k -> columns.getOrDefault(lower(k), -1.0)).map(d -> d == 0 ? -1.0 : d).toList();
                operator = Cardinalities.groupBy(inputRows, distincts, maps, Cardinalities.KeyPlacement.RANDOM);
                outRowBytes = Math.min(inputRowBytes, GROUP_COLUMN_BYTES * (job.keys().size() + 1));
            }
            default -> {
                operator = Cardinalities.orderBy(inputRows);
                outRowBytes = inputRowBytes;
            }
        }
        measured &= operator.confidence() != Selectivity.Confidence.LOW;
        Selectivity residual = selectivity.estimateAll(job.residualFilters());
        double filtered = operator.outputRows() * residual.value();
        double limited = job.limit() == JobShape.NO_LIMIT ? filtered : Math.min(filtered, job.limit());
        double outRows = limited;
        double shuffledRows = operator.intermediateRows();
        double shuffledBytes = shuffledRows * inputRowBytes;
        Map<String, Double> outColumns = new HashMap<>();
        columns.forEach((column, distinct) -> {
            if (job.operator() != OperatorKind.GROUP_BY || isKey(job, column)) {
                outColumns.put(column, Math.min(distinct, limited));
            }
        });
        Map<String, OperatorRows.Sunk> sinks = Map.of();
        Map<String, Double> operatorRows = Map.of();
        Map<String, Lineage> remembered = Map.of();
        Optional<OperatorRows.Outcome> followed = job.tree().flatMap(tree -> followed(job, tree, tableRows,
                written(parents), maps, sized.reduceTasks()));
        if (followed.isPresent()) {
            // the operators one by one know better than the job's major operator alone
            OperatorRows.Outcome o = followed.get();
            outRows = o.outputRows();
            shuffledRows = o.shuffledRows();
            // widths from the columns each sink and shuffle carry, not the tables' full rows
            shuffledBytes = o.shuffledBytes();
            outRowBytes = outRows > 0 ? o.outputBytes() / outRows : outRowBytes;
            measured = o.measured();
            sinks = o.sinks();
            operatorRows = o.operatorRows();
            remembered = o.remembered();
            outColumns.clear();
            for (OperatorRows.Sunk sunk : sinks.values()) {
                for (OperatorRows.Column c : sunk.columns()) {
                    c.origin().ifPresent(ref -> outColumns.merge(lower(ref.name()), c.values().distinct(), Math::min));
                }
            }
        }
        JobVolume volume = CoarseEstimator.volume(settings, job, inputs, readRows,
                Math.round(shuffledBytes), shuffledRows, Math.round(outRows * outRowBytes), outRows);
        JobEstimate estimate = CoarseEstimator.timed(settings, model, job, volume,
                measured ? JobEstimate.Confidence.MEDIUM : JobEstimate.Confidence.LOW);
        return new Flow(outRows, outRowBytes, Map.copyOf(outColumns), sinks, operatorRows, remembered, volume, estimate,
                measured);
    }

    /** The operator walk; a tree it cannot follow leaves the job to the major-operator model. */
    private Optional<OperatorRows.Outcome> followed(JobShape job, OperatorTree tree, Map<String, Double> tableRows,
                                                    Map<String, OperatorRows.Sunk> written, int maps, int reducers) {
        try {
            return operators.estimate(tree, tableRows, written, maps, reducers);
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not follow the operators of {}; estimated by its major operator", job.stageId(), e);
            return Optional.empty();
        }
    }

    /** What the parents wrote, by path: the files a job's intermediate inputs read. */
    private static Map<String, OperatorRows.Sunk> written(List<Flow> parents) {
        Map<String, OperatorRows.Sunk> paths = new HashMap<>();
        parents.forEach(p -> paths.putAll(p.sinks()));
        return paths;
    }

    /**
     * The join of all sides on the job's key, folded pairwise (a chain on one key: the joined
     * key distribution carries on). A side whose key is unknown is taken as a foreign key: at
     * most as many distinct values as the side it meets.
     */
    private static JoinEstimate join(List<Side> sides) {
        if (sides.isEmpty()) {
            return new JoinEstimate(0, KeyDistribution.ofCounts(0, 0), Selectivity.Confidence.LOW);
        }
        KeyDistribution acc = sides.get(0).key().orElse(KeyDistribution.ofCounts(sides.get(0).rows(), 0));
        JoinEstimate result = new JoinEstimate(acc.rows(), acc, Selectivity.Confidence.HIGH);
        for (Side side : sides.subList(1, sides.size())) {
            KeyDistribution next = side.key().orElse(KeyDistribution.ofCounts(side.rows(), 0));
            if (acc.distinct() == 0 && next.distinct() > 0) {
                acc = KeyDistribution.ofCounts(acc.rows(), next.distinct());
            } else if (next.distinct() == 0 && acc.distinct() > 0) {
                next = KeyDistribution.ofCounts(next.rows(), acc.distinct());
            }
            result = Cardinalities.join(acc, next);
            acc = result.key();
        }
        return result;
    }

    /** Rows of a scanned table from the statistics of any column the job reads from it. */
    private Optional<Double> statisticsRows(TableScan scan) {
        for (String column : scan.columns()) {
            Optional<ColumnStatistics> c = statistics.find(new ColumnRef(scan.table().name(), column));
            if (c.isPresent()) {
                return Optional.of((double) c.get().rowCount());
            }
        }
        return Optional.empty();
    }

    private static boolean isKey(JobShape job, String column) {
        return job.keys().stream().anyMatch(k -> k.equalsIgnoreCase(column));
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
