package io.percolate.hive.refine;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.model.QueryDescriptor;
import io.percolate.stats.StatisticsStore;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.apache.hadoop.hive.ql.session.SessionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the descriptors of running queries current, on one daemon thread per Hive process
 * (HiveServer2 or the CLI), never on a query's own thread. A query is looked at every
 * {@code percolate.hook.refine-seconds} until all its jobs finished, or for at most
 * {@link #MAX_WATCH}; a failure stops watching that query with one log line and leaves its last
 * descriptor in place.
 */
public final class OutputWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(OutputWatcher.class);
    /** A query still running after this long keeps its last descriptor: a bound on what a stuck query costs. */
    static final Duration MAX_WATCH = Duration.ofHours(24);
    private static final OutputWatcher SHARED = new OutputWatcher(Clock.systemUTC());

    private final Clock clock;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "percolate-output-watcher");
        t.setDaemon(true);
        return t;
    });

    OutputWatcher(Clock clock) {
        this.clock = clock;
    }

    public static OutputWatcher shared() {
        return SHARED;
    }

    /**
     * Starts watching a query that is about to run, from the hook's (the query's) thread: its
     * session is where Hive records each finished job's counters.
     */
    public void watch(QueryDescriptor published, PlannedQuery planned, List<ExecDriver> jobs, HiveConf conf,
                      DescriptorStore store, Optional<StatisticsStore> past, Duration every) {
        try {
            SessionState session = SessionState.get();
            if (session == null) {
                LOG.info("Percolate: query {} has no Hive session; its descriptor keeps its first estimates",
                        published.queryId());
                return;
            }
            QueryWatch watch = new QueryWatch(published, planned, jobs, JobOutputs.inSession(session),
                    conf.getVar(HiveConf.ConfVars.HIVE_COUNTER_GROUP), store, past, clock);
            schedule(watch, every, clock.millis() + MAX_WATCH.toMillis());
        } catch (Exception | LinkageError e) {
            // e.g. a Hive version without these session internals: the query is tagged all the same
            LOG.warn("Percolate: query {} keeps its first estimates: {}", published.queryId(), e.toString());
        }
    }

    private void schedule(QueryWatch watch, Duration every, long untilMillis) {
        try {
            executor.schedule(() -> poll(watch, every, untilMillis), every.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            // the process is shutting down
        }
    }

    private void poll(QueryWatch watch, Duration every, long untilMillis) {
        try {
            if (watch.poll() && clock.millis() < untilMillis) {
                schedule(watch, every, untilMillis);
            }
        } catch (Exception | LinkageError e) {
            // the query runs on regardless; the scheduler keeps the last descriptor it read
            LOG.warn("Percolate: stopped refining the descriptor of query {}: {}", watch.queryId(), e.toString());
        }
    }
}
