package io.percolate.scheduler;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.registry.QueryRegistry;
import io.percolate.scheduler.web.HttpAddress;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestTlsConfig {

    private static Configuration conf(String... keyValues) {
        Configuration conf = new Configuration(false);
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        return conf;
    }

    @Test
    void keys_arePinned() {
        // operators' yarn-site.xml files and the README name these; renaming one silently drops a setting
        assertEquals("percolate.descriptor.dir", DescriptorStore.DIR_KEY);
        assertEquals("percolate.scheduler.descriptor-load-attempts", TlsConfig.LOAD_ATTEMPTS);
        assertEquals("percolate.scheduler.descriptor-retry-ms", TlsConfig.LOAD_RETRY_MS);
        assertEquals("percolate.scheduler.descriptor-recheck-ms", TlsConfig.RECHECK_MS);
        assertEquals("percolate.scheduler.loader-threads", TlsConfig.LOADER_THREADS);
        assertEquals("percolate.scheduler.query-idle-seconds", TlsConfig.QUERY_IDLE_SECONDS);
        assertEquals("percolate.scheduler.history-size", TlsConfig.HISTORY_SIZE);
        assertEquals("percolate.scheduler.default-task-seconds", TlsConfig.DEFAULT_TASK_SECONDS);
        assertEquals("percolate.scheduler.delete-retired-descriptors", TlsConfig.DELETE_RETIRED);
        assertEquals("percolate.scheduler.job-start-seconds", TlsConfig.JOB_START_SECONDS);
        assertEquals("percolate.scheduler.am-first-queries", TlsConfig.AM_FIRST_QUERIES);
        assertEquals("percolate.scheduler.am-lane", TlsConfig.AM_LANE);
        assertEquals("percolate.scheduler.task-gate", TlsConfig.TASK_GATE);
        assertEquals("percolate.scheduler.qef.enabled", TlsConfig.QEF_ENABLED);
        assertEquals("percolate.scheduler.qef.fairness", TlsConfig.QEF_FAIRNESS);
        assertEquals("percolate.scheduler.qef.slow-list-limit", TlsConfig.SLOW_LIST_LIMIT);
        assertEquals("percolate.scheduler.qef.oldest-query-share", TlsConfig.OLDEST_SHARE);
        assertEquals("percolate.scheduler.qef.load-window-seconds", TlsConfig.LOAD_WINDOW_SECONDS);
        assertEquals("percolate.scheduler.qef.max-load", TlsConfig.MAX_LOAD);
        assertEquals("percolate.scheduler.lodfa.enabled", TlsConfig.LODFA_ENABLED);
        assertEquals("percolate.scheduler.lodfa.input-sharing", TlsConfig.INPUT_SHARING);
        assertEquals("percolate.scheduler.http-address", TlsConfig.HTTP_ADDRESS);
    }

    @Test
    void from_emptyConfigurationGivesDocumentedDefaults() {
        TlsConfig config = TlsConfig.from(new Configuration(false));

        assertEquals("/tmp/percolate/descriptors", config.descriptorDir());
        assertEquals(5, config.loadAttempts());
        assertEquals(Duration.ofMillis(1000), config.loadRetryDelay());
        assertEquals(2, config.loaderThreads());
        assertTrue(config.deleteRetiredDescriptors());
        assertEquals(2, config.amFirstQueries());
        assertEquals(0, config.amLane());
        assertEquals(0, config.taskGate(), "the task gate is off");
        assertEquals(new QueryRegistry.Settings(600_000, 100, 30, 10, true, true, 1000), config.registry());
        assertEquals(new Qef.Settings(true, true, 3, 0), config.qef());
        assertEquals(Duration.ofSeconds(300), config.loadWindow());
        assertEquals(0.95, config.maxLoad());
        assertEquals(Optional.of(new HttpAddress("127.0.0.1", 8099)), config.httpAddress());
    }

    @Test
    void from_readsExplicitValues() {
        TlsConfig config = TlsConfig.from(conf(
                "percolate.descriptor.dir", "  hdfs://nn:8020/percolate/d  ",
                "percolate.scheduler.descriptor-load-attempts", "3",
                "percolate.scheduler.descriptor-retry-ms", "250",
                "percolate.scheduler.descriptor-recheck-ms", "200",
                "percolate.scheduler.loader-threads", "4",
                "percolate.scheduler.query-idle-seconds", "90",
                "percolate.scheduler.history-size", "7",
                "percolate.scheduler.default-task-seconds", "12.5",
                "percolate.scheduler.delete-retired-descriptors", "false",
                "percolate.scheduler.job-start-seconds", "2.5",
                "percolate.scheduler.am-first-queries", "0",
                "percolate.scheduler.am-lane", "3",
                "percolate.scheduler.task-gate", "1.5",
                "percolate.scheduler.qef.enabled", "false",
                "percolate.scheduler.qef.fairness", "FALSE",
                "percolate.scheduler.qef.slow-list-limit", "0",
                "percolate.scheduler.qef.oldest-query-share", "0.25",
                "percolate.scheduler.qef.load-window-seconds", "60",
                "percolate.scheduler.qef.max-load", "0.5",
                "percolate.scheduler.lodfa.enabled", "false",
                "percolate.scheduler.lodfa.input-sharing", "false",
                "percolate.scheduler.http-address", " [::1]:0 ",
                "percolate.scheduler.input.max-wait-ms", "0",
                "percolate.scheduler.input.ready-share", "1",
                "percolate.scheduler.input.manager-address", "xdfs1.example.invalid:8098",
                "percolate.scheduler.input.secret-file", " /etc/percolate/secret "));

        assertEquals(new TlsConfig("hdfs://nn:8020/percolate/d", 3, Duration.ofMillis(250), 4, false, 0, 3, 1.5,
                new QueryRegistry.Settings(90_000, 7, 12.5, 2.5, false, false, 200), new Qef.Settings(false, false, 0, 0.25),
                Duration.ofSeconds(60), 0.5, Optional.of(new HttpAddress("::1", 0)), Duration.ZERO, 1.0,
                Optional.of(new HttpAddress("xdfs1.example.invalid", 8098)), Optional.of(Path.of("/etc/percolate/secret"))),
                config);
    }

    @ParameterizedTest
    @CsvSource({"''", "'  '"})
    void from_blankHttpAddressTurnsTheViewOff(String value) {
        assertEquals(Optional.empty(), TlsConfig.from(conf("percolate.scheduler.http-address", value)).httpAddress());
    }

    @Test
    void from_readsHostnameHttpAddressWithoutResolvingIt() {
        assertEquals(Optional.of(new HttpAddress("rm1.example.invalid", 18099)),
                TlsConfig.from(conf("percolate.scheduler.http-address", "rm1.example.invalid:18099")).httpAddress());
    }

    @Test
    void from_acceptsZeroWhereZeroMakesSense() {
        TlsConfig config = TlsConfig.from(conf(
                "percolate.scheduler.descriptor-retry-ms", "0",
                "percolate.scheduler.descriptor-recheck-ms", "0",
                "percolate.scheduler.query-idle-seconds", "0",
                "percolate.scheduler.job-start-seconds", "0",
                "percolate.scheduler.history-size", "0"));

        assertEquals(Duration.ZERO, config.loadRetryDelay());
        assertEquals(new QueryRegistry.Settings(0, 0, 30, 0, true, true, 0), config.registry());
    }

    @ParameterizedTest
    @CsvSource({
            "percolate.scheduler.descriptor-load-attempts, 0",
            "percolate.scheduler.descriptor-load-attempts, -1",
            "percolate.scheduler.loader-threads, 0",
            "percolate.scheduler.descriptor-retry-ms, -1",
            "percolate.scheduler.descriptor-recheck-ms, -1",
            "percolate.scheduler.default-task-seconds, 0",
            "percolate.scheduler.default-task-seconds, -2.5",
            "percolate.scheduler.default-task-seconds, NaN",
            "percolate.scheduler.default-task-seconds, Infinity",
            "percolate.scheduler.query-idle-seconds, -1",
            "percolate.scheduler.history-size, -1",
            "percolate.descriptor.dir, ''",
            "percolate.descriptor.dir, '   '",
            "percolate.scheduler.qef.enabled, yes",
            "percolate.scheduler.job-start-seconds, -1",
            "percolate.scheduler.am-first-queries, -1",
            "percolate.scheduler.am-first-queries, 1000001",
            "percolate.scheduler.am-lane, -1",
            "percolate.scheduler.am-lane, 1000001",
            "percolate.scheduler.task-gate, -0.5",
            "percolate.scheduler.task-gate, NaN",
            "percolate.scheduler.task-gate, Infinity",
            "percolate.scheduler.lodfa.input-sharing, ture",
            "percolate.scheduler.qef.slow-list-limit, -1",
            "percolate.scheduler.qef.oldest-query-share, 1",
            "percolate.scheduler.qef.oldest-query-share, -0.1",
            "percolate.scheduler.qef.oldest-query-share, NaN",
            "percolate.scheduler.qef.load-window-seconds, 0",
            "percolate.scheduler.qef.max-load, 1",
            "percolate.scheduler.qef.max-load, -0.1",
            "percolate.scheduler.qef.max-load, NaN",
            "percolate.scheduler.http-address, 8099",
            "percolate.scheduler.http-address, :8099",
            "percolate.scheduler.http-address, localhost:",
            "percolate.scheduler.http-address, localhost:http",
            "percolate.scheduler.http-address, localhost:65536",
            "percolate.scheduler.http-address, localhost:-1",
            "percolate.scheduler.http-address, ::1:8099",
            "percolate.scheduler.input.max-wait-ms, -1",
            "percolate.scheduler.input.ready-share, 0",
            "percolate.scheduler.input.ready-share, 1.5",
            "percolate.scheduler.input.ready-share, NaN",
            "percolate.scheduler.input.manager-address, xdfs1",
    })
    void from_rejectsBadValueNamingTheKey(String key, String value) {
        Configuration conf = conf(key, value);
        assertEquals(value, conf.getRaw(key));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlsConfig.from(conf));
        assertTrue(e.getMessage().contains(key), e.getMessage());
    }

    @Test
    void from_rejectsNonNumericValueNamingTheKey() {
        Configuration conf = conf("percolate.scheduler.descriptor-load-attempts", "five");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlsConfig.from(conf));
        assertTrue(e.getMessage().contains("percolate.scheduler.descriptor-load-attempts"), e.getMessage());
    }
}
