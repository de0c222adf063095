package io.percolate.hive;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.estimate.CoarseEstimator;
import io.percolate.stats.StatisticsStore;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.conf.HiveConf;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestHookConfig {

    private static Configuration empty() {
        return new Configuration(false); // no *-default.xml: only what the test sets
    }

    private static Configuration with(String... keyValues) {
        Configuration conf = empty();
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        return conf;
    }

    @Test
    void keyNames_arePinned() {
        // operators write these in hive-site.xml and the README; renaming one silently drops a setting
        assertEquals("percolate.hook.enabled", HookConfig.ENABLED);
        assertEquals("percolate.hook.refine-seconds", HookConfig.REFINE_SECONDS);
        assertEquals("percolate.descriptor.dir", DescriptorStore.DIR_KEY);
        assertEquals("percolate.estimate.map-mb-per-second", HookConfig.MAP_MB_PER_SECOND);
        assertEquals("percolate.estimate.reduce-mb-per-second", HookConfig.REDUCE_MB_PER_SECOND);
        assertEquals("percolate.estimate.task-start-seconds", HookConfig.TASK_START_SECONDS);
        assertEquals("mapreduce.input.fileinputformat.split.maxsize", HookConfig.SPLIT_MAX_BYTES);
        assertEquals("hive.exec.reducers.bytes.per.reducer", HookConfig.BYTES_PER_REDUCER);
        assertEquals("hive.exec.reducers.max", HookConfig.MAX_REDUCERS);
        assertEquals("dfs.blocksize", HookConfig.BLOCK_BYTES);
        assertEquals("percolate.statistics.on-analyze", HookConfig.STATISTICS_ON_ANALYZE);
    }

    @Test
    void emptyConfiguration_givesTheDefaults() {
        HookConfig config = HookConfig.from(empty());
        assertTrue(config.enabled());
        assertTrue(HookConfig.DEFAULT_ENABLED);
        assertEquals("/tmp/percolate/descriptors", config.descriptorDir());
        assertEquals(DescriptorStore.DEFAULT_DIR, config.descriptorDir());
        assertEquals(Optional.of("/percolate/statistics"), config.statisticsDir());
        assertEquals(CoarseEstimator.Settings.DEFAULTS, config.estimator());
        assertEquals(0.5, config.refineSeconds());
        assertFalse(config.statisticsOnAnalyze(), "ANALYZE TABLE builds only Hive's statistics unless asked");
        // and the defaults themselves, by hand
        assertEquals(new CoarseEstimator.Settings(268_435_456L, 268_435_456L, 1009, 50_000_000.0, 25_000_000.0, 5.0),
                config.estimator());
    }

    @Test
    void refineSeconds_zeroTurnsRefinementOff_negativeIsRefused() {
        assertEquals(0, HookConfig.from(with("percolate.hook.refine-seconds", "0")).refineSeconds());
        assertEquals(2.5, HookConfig.from(with("percolate.hook.refine-seconds", "2.5")).refineSeconds());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HookConfig.from(with("percolate.hook.refine-seconds", "-1")));
        assertTrue(e.getMessage().contains("percolate.hook.refine-seconds"), e.getMessage());
    }

    @Test
    void rememberFilters_isOnWithAStatisticsDirectory_andCanBeTurnedOff() {
        Configuration conf = new Configuration(false);
        assertTrue(HookConfig.from(empty()).rememberFilters());
        assertTrue(HookConfig.from(empty()).pastSelectivities(conf).isPresent());
        assertTrue(HookConfig.from(with("percolate.statistics.remember-filters", "false")).pastSelectivities(conf).isEmpty());
        assertTrue(HookConfig.from(with("percolate.statistics.dir", "")).pastSelectivities(conf).isEmpty());
    }

    @Test
    void statisticsDir_emptyTurnsStatisticsOff() {
        assertEquals("percolate.statistics.dir", StatisticsStore.DIR_KEY);
        assertEquals(Optional.empty(), HookConfig.from(with("percolate.statistics.dir", " ")).statisticsDir());
        assertEquals(Optional.of("hdfs://nn/s"), HookConfig.from(with("percolate.statistics.dir", "hdfs://nn/s")).statisticsDir());
    }

    @Test
    void explicitValues_areRead_andMegabytesBecomeBytes() {
        HookConfig config = HookConfig.from(with(
                "percolate.hook.enabled", "false",
                "percolate.descriptor.dir", "  hdfs://nn:8020/percolate/d  ",
                "percolate.estimate.map-mb-per-second", "100",
                "percolate.estimate.reduce-mb-per-second", "12.5",
                "percolate.estimate.task-start-seconds", "0",
                "mapreduce.input.fileinputformat.split.maxsize", "134217728",
                "hive.exec.reducers.bytes.per.reducer", "1000000",
                "hive.exec.reducers.max", "99",
                "dfs.blocksize", "64m"));
        assertFalse(config.enabled());
        assertEquals("hdfs://nn:8020/percolate/d", config.descriptorDir()); // trimmed
        CoarseEstimator.Settings s = config.estimator();
        assertEquals(134_217_728L, s.splitBytes());
        assertEquals(1_000_000L, s.bytesPerReducer());
        assertEquals(99, s.maxReducers());
        assertEquals(100_000_000.0, s.mapBytesPerSecond(), 1e-6);
        assertEquals(12_500_000.0, s.reduceBytesPerSecond(), 1e-6);
        assertEquals(0.0, s.taskStartSeconds());
        assertEquals(64L << 20, s.blockBytes(), "HDFS's size suffixes are read");
    }

    @Test
    void oneValueSet_leavesTheOthersAtTheirDefaults() {
        CoarseEstimator.Settings d = CoarseEstimator.Settings.DEFAULTS;
        CoarseEstimator.Settings s = HookConfig.from(with("percolate.estimate.reduce-mb-per-second", "5")).estimator();
        assertEquals(new CoarseEstimator.Settings(d.splitBytes(), d.bytesPerReducer(), d.maxReducers(),
                d.mapBytesPerSecond(), 5_000_000.0, d.taskStartSeconds()), s);
    }

    @Test
    void hiveConf_sizesTasksLikeHive() {
        // The hook is handed a HiveConf, which carries Hive's own defaults for the split and
        // reducer keys; those win over the estimator's, so task counts match what Hive runs.
        HiveConf hive = new HiveConf();
        CoarseEstimator.Settings s = HookConfig.from(hive).estimator();
        assertEquals(hive.getLongVar(HiveConf.ConfVars.MAPRED_MAX_SPLIT_SIZE), s.splitBytes());
        assertEquals(hive.getLongVar(HiveConf.ConfVars.BYTES_PER_REDUCER), s.bytesPerReducer());
        assertEquals(hive.getIntVar(HiveConf.ConfVars.MAX_REDUCERS), s.maxReducers());
        assertEquals(CoarseEstimator.Settings.DEFAULTS.mapBytesPerSecond(), s.mapBytesPerSecond());
        assertTrue(HookConfig.from(hive).enabled());
    }

    @Test
    void invalidValues_throw() {
        assertInvalid("percolate.estimate.map-mb-per-second", "0");
        assertInvalid("percolate.estimate.map-mb-per-second", "-3");
        assertInvalid("percolate.estimate.map-mb-per-second", "NaN");
        assertInvalid("percolate.estimate.reduce-mb-per-second", "0");
        assertInvalid("percolate.estimate.task-start-seconds", "-1");
        assertInvalid("percolate.estimate.task-start-seconds", "NaN");
        assertInvalid("mapreduce.input.fileinputformat.split.maxsize", "0");
        assertInvalid("hive.exec.reducers.bytes.per.reducer", "-1");
        assertInvalid("hive.exec.reducers.max", "0");
        assertInvalid("percolate.descriptor.dir", "");
        assertInvalid("percolate.descriptor.dir", "   ");
    }

    @Test
    void unparsableNumbers_throw() {
        // NumberFormatException is an IllegalArgumentException: the hook's catch sees one kind
        assertInvalid("percolate.estimate.map-mb-per-second", "fast");
        assertInvalid("hive.exec.reducers.max", "1.5");
    }

    @Test
    void blankDescriptorDir_errorNamesTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HookConfig.from(with("percolate.descriptor.dir", " ")));
        assertTrue(e.getMessage().contains("percolate.descriptor.dir"), e.getMessage());
    }

    @Test
    void outOfRangeEstimatorValue_errorNamesTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HookConfig.from(with("percolate.estimate.map-mb-per-second", "0")));
        assertTrue(e.getMessage().contains("percolate.estimate.map-mb-per-second"), e.getMessage());
    }

    @Test
    void outOfRangeEstimatorValue_errorShowsTheValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HookConfig.from(with("percolate.estimate.task-start-seconds", "-7")));
        assertTrue(e.getMessage().contains("-7"), e.getMessage());
    }

    private static void assertInvalid(String key, String value) {
        assertThrows(IllegalArgumentException.class, () -> HookConfig.from(with(key, value)),
                () -> key + "=" + value + " was accepted");
    }
}
