package io.percolate.hive;

import io.percolate.config.ConfigValues;
import io.percolate.descriptor.DescriptorStore;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.hive.model.TimeModelFile;
import io.percolate.stats.StatisticsStore;
import io.percolate.timing.TimeModel;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

import java.util.Optional;

/**
 * The hook's settings, read once per query from the Hive configuration (hive-site.xml or a
 * session {@code SET}). Every key, its default and its meaning is listed here and in the README.
 */
record HookConfig(boolean enabled, String descriptorDir, Optional<String> statisticsDir,
                  boolean metastoreStatistics, CoarseEstimator.Settings estimator, Optional<String> modelPath,
                  double refineSeconds, boolean rememberFilters, boolean statisticsOnAnalyze) {

    /** Turns the hook off without removing it from {@code hive.exec.pre.hooks}. */
    static final String ENABLED = "percolate.hook.enabled";
    static final boolean DEFAULT_ENABLED = true;
    /**
     * How often, seconds, the hook looks for a running query's finished jobs and republishes its
     * descriptor with their real outputs re-estimating the jobs after them; 0 turns that off.
     */
    static final String REFINE_SECONDS = "percolate.hook.refine-seconds";
    static final double DEFAULT_REFINE_SECONDS = 0.5;
    /**
     * Whether Hive's column statistics from the metastore (ANALYZE ... FOR COLUMNS, with KLL
     * histograms when Hive kept them) stand in for tables the statistics store has none of.
     */
    static final String METASTORE_STATISTICS = "percolate.statistics.metastore";
    static final boolean DEFAULT_METASTORE_STATISTICS = true;
    /**
     * Whether the selectivity each filter over a table scan really had, and the share of its
     * largest input each join and keyed group-by put out (keyed by its lineage), is remembered beside
     * the table's statistics as its job finishes, and estimates the same operator next time (needs
     * the statistics directory; remembering happens on the refine thread, so refine-seconds &gt; 0).
     * A table with remembered filters and no statistics is estimated statistically, not coarsely.
     */
    static final String REMEMBER_FILTERS = "percolate.statistics.remember-filters";
    static final boolean DEFAULT_REMEMBER_FILTERS = true;
    /**
     * Whether a successful {@code ANALYZE TABLE} also builds Percolate's statistics of the table or
     * its analysed partitions ({@link AnalyzeHook}, in {@code hive.exec.post.hooks}); the statement
     * then takes one more MapReduce job per table or partition.
     */
    static final String STATISTICS_ON_ANALYZE = "percolate.statistics.on-analyze";
    static final boolean DEFAULT_STATISTICS_ON_ANALYZE = false;
    /**
     * The trained task-time model ({@code ./percolate model train}) on the cluster file system;
     * empty: tasks are timed by the throughputs below.
     */
    static final String MODEL_PATH = TimeModelFile.PATH_KEY;
    /** Throughput of a map task, MB/s, for estimates without a trained time model. */
    static final String MAP_MB_PER_SECOND = "percolate.estimate.map-mb-per-second";
    /** Throughput of a reduce task, MB/s, for estimates without a trained time model. */
    static final String REDUCE_MB_PER_SECOND = "percolate.estimate.reduce-mb-per-second";
    /** Fixed start-up cost of every task, seconds. */
    static final String TASK_START_SECONDS = "percolate.estimate.task-start-seconds";
    // Hive's and MapReduce's own keys, read so our task counts match what Hive will run.
    static final String SPLIT_MAX_BYTES = "mapreduce.input.fileinputformat.split.maxsize";
    static final String BYTES_PER_REDUCER = "hive.exec.reducers.bytes.per.reducer";
    static final String MAX_REDUCERS = "hive.exec.reducers.max";
    static final String BLOCK_BYTES = "dfs.blocksize";

    HookConfig {
        if (descriptorDir == null || descriptorDir.isBlank()) {
            throw new IllegalArgumentException(DescriptorStore.DIR_KEY + " is empty");
        }
    }

    /** Where table statistics are read from ({@code percolate.statistics.dir}); empty: none are read. */
    Optional<StatisticsStore> statisticsStore(Configuration conf) {
        return statisticsDir.map(dir -> new StatisticsStore(conf, new Path(dir)));
    }

    /** Where filters' past selectivities are read and remembered; empty when they are not. */
    Optional<StatisticsStore> pastSelectivities(Configuration conf) {
        return rememberFilters ? statisticsStore(conf) : Optional.empty();
    }

    /** The trained time model, if one is configured and readable (else a warning, and the throughputs). */
    Optional<TimeModel> timeModel(Configuration conf) {
        return modelPath.flatMap(path -> TimeModelFile.shared().load(conf, path));
    }

    /** @throws IllegalArgumentException naming the bad key when a value is out of range */
    static HookConfig from(Configuration conf) {
        CoarseEstimator.Settings d = CoarseEstimator.Settings.DEFAULTS;
        CoarseEstimator.Settings estimator = new CoarseEstimator.Settings(
                (long) positive(conf, SPLIT_MAX_BYTES, conf.getLong(SPLIT_MAX_BYTES, d.splitBytes())),
                (long) positive(conf, BYTES_PER_REDUCER, conf.getLong(BYTES_PER_REDUCER, d.bytesPerReducer())),
                (int) positive(conf, MAX_REDUCERS, conf.getInt(MAX_REDUCERS, d.maxReducers())),
                positive(conf, MAP_MB_PER_SECOND, conf.getDouble(MAP_MB_PER_SECOND, d.mapBytesPerSecond() / 1e6)) * 1e6,
                positive(conf, REDUCE_MB_PER_SECOND, conf.getDouble(REDUCE_MB_PER_SECOND, d.reduceBytesPerSecond() / 1e6)) * 1e6,
                nonNegative(TASK_START_SECONDS, conf.getDouble(TASK_START_SECONDS, d.taskStartSeconds())),
                (long) positive(conf, BLOCK_BYTES, conf.getLongBytes(BLOCK_BYTES, d.blockBytes())));
        String statistics = conf.getTrimmed(StatisticsStore.DIR_KEY, StatisticsStore.DEFAULT_DIR);
        return new HookConfig(
                ConfigValues.flag(conf, ENABLED, DEFAULT_ENABLED),
                conf.getTrimmed(DescriptorStore.DIR_KEY, DescriptorStore.DEFAULT_DIR),
                statistics.isEmpty() ? Optional.empty() : Optional.of(statistics),
                ConfigValues.flag(conf, METASTORE_STATISTICS, DEFAULT_METASTORE_STATISTICS),
                estimator,
                Optional.of(conf.getTrimmed(MODEL_PATH, "")).filter(p -> !p.isEmpty()),
                nonNegative(REFINE_SECONDS, conf.getDouble(REFINE_SECONDS, DEFAULT_REFINE_SECONDS)),
                ConfigValues.flag(conf, REMEMBER_FILTERS, DEFAULT_REMEMBER_FILTERS),
                ConfigValues.flag(conf, STATISTICS_ON_ANALYZE, DEFAULT_STATISTICS_ON_ANALYZE));
    }

    private static double positive(Configuration conf, String key, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(key + " must be > 0, got " + conf.get(key));
        }
        return value;
    }

    private static double nonNegative(String key, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(key + " must be >= 0, got " + value);
        }
        return value;
    }
}
