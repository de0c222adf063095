package io.percolate.sim.report;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One workload under one scheduler.
 *
 * @param jobs           every job's timeline, in submission order
 * @param makespanMillis from the run's start to the last query's finish
 * @param wallMillis     wall-clock time the run took
 * @param maps           map tasks run
 * @param memoryLocalMaps map tasks whose input split was in their node's page cache (memory locality)
 * @param nfsMaps        map tasks that read their split from the NFS filer (tables on NFS only)
 * @param nfsBytes       bytes those tasks read from the filer
 * @param prefetchBytes  bytes XDFS's transfers copied from the filer into the cache ahead of the tasks
 * @param starts         how long ApplicationMasters and tasks took to start, and among how many starts
 */
public record RunResult(String scheduler, List<QueryOutcome> queries, List<JobTimeline> jobs, long makespanMillis,
                        long wallMillis, int maps, int memoryLocalMaps, int nfsMaps, long nfsBytes, long prefetchBytes,
                        Starts starts) {
    /**
     * The run's JVM starts: an ApplicationMaster's from its launch's report to its first asks, a
     * task's from its container's allocation to the start of its work; their means, and the mean
     * number of starts (AMs' and tasks') in flight during each ({@link StartCrowding}).
     */
    public record Starts(double meanAmStartSeconds, double meanTaskStartSeconds, double amStartsInFlight,
                         double taskStartsInFlight) {
    }

    public RunResult {
        queries = List.copyOf(queries);
        jobs = List.copyOf(jobs);
    }

    public Map<String, QueryOutcome> byId() {
        return queries.stream().collect(Collectors.toMap(QueryOutcome::id, Function.identity()));
    }

    public double response(String queryId) {
        QueryOutcome q = byId().get(queryId);
        if (q == null) {
            throw new IllegalArgumentException("no query " + queryId + " in " + scheduler + "'s run");
        }
        return q.responseSeconds();
    }

    /** Share of map tasks that read a table already in their node's page cache. */
    public double memoryLocalShare() {
        return maps == 0 ? 0 : (double) memoryLocalMaps / maps;
    }

    public double meanResponseSeconds() {
        return queries.stream().mapToDouble(QueryOutcome::responseSeconds).average().orElse(0);
    }
}
