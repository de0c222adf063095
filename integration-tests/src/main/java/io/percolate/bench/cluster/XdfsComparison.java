package io.percolate.bench.cluster;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Issue 7, item 4: one mix with its tables on the NFS filer, run on one cluster in three ways
 * that give four figures. <em>Ingest-then-compute</em> copies the tables into HDFS and then runs
 * the mix on the copy; that run alone is <em>all-in-HDFS</em>. <em>Cold</em> runs the mix on the
 * filer through xdfs with nothing cached; <em>warm</em> runs it again, finding what the cold run
 * cached.
 */
final class XdfsComparison {
    private XdfsComparison() {
    }

    /**
     * One run of the mix, the bytes the filer served during it and what the metadata manager's
     * cache counters gained (none without a manager).
     */
    record Phase(List<QueryRun> runs, long filerBytes, Map<String, Long> managerCounters) {
        Phase {
            runs = List.copyOf(runs);
            managerCounters = Map.copyOf(managerCounters);
        }

        double meanResponse() {
            return runs.stream().mapToDouble(QueryRun::responseSeconds).average().orElse(Double.NaN);
        }

        /** From the mix's start to its last answer. */
        double makespan() {
            return runs.stream().mapToDouble(r -> r.submittedSeconds() + r.responseSeconds()).max().orElse(Double.NaN);
        }
    }

    /**
     * @param ingestSeconds    the copy of every table from the filer into HDFS
     * @param ingestFilerBytes what that copy read from the filer
     * @param hdfs             the mix on the ingested copy
     * @param cold             the mix through xdfs, nothing cached
     * @param warm             the mix through xdfs again
     */
    record Result(String mix, double ingestSeconds, long ingestFilerBytes, Phase hdfs, Phase cold, Phase warm) {
        Result {
            requireNonNull(mix, "mix");
            requireNonNull(hdfs, "hdfs");
            requireNonNull(cold, "cold");
            requireNonNull(warm, "warm");
        }

        /** Ingest-then-compute: the mix can start only once the copy is done. */
        double ingestThenComputeMakespan() {
            return ingestSeconds + hdfs.makespan();
        }

        /** Every query waits for the copy, then runs as it did on HDFS. */
        double ingestThenComputeMeanResponse() {
            return ingestSeconds + hdfs.meanResponse();
        }
    }

    static Result run(TpchCluster cluster, Mix mix, HeldOutModels models) throws Exception {
        MixRunner runner = cluster.runner(models);
        cluster.copyToFiler();

        long before = cluster.filerBytes();
        double ingest = cluster.ingestFromFiler();
        long ingestBytes = cluster.filerBytes() - before;
        ClusterBench.progress(String.format(Locale.ROOT, "xdfs: ingest %.1f s", ingest));
        Phase hdfs = phase(cluster, runner, mix, "on the ingested copy");

        cluster.readThroughXdfs();
        Phase cold = phase(cluster, runner, mix, "through xdfs, cold");
        Phase warm = phase(cluster, runner, mix, "through xdfs, warm");
        return new Result(mix.name(), ingest, ingestBytes, hdfs, cold, warm);
    }

    private static Phase phase(TpchCluster cluster, MixRunner runner, Mix mix, String what) throws Exception {
        long before = cluster.filerBytes();
        Map<String, Long> countersBefore = cluster.managerCounters();
        List<QueryRun> runs = runner.run(mix);
        Map<String, Long> gained = new HashMap<>();
        cluster.managerCounters().forEach((name, value) -> {
            long delta = value - countersBefore.getOrDefault(name, 0L);
            if (delta != 0) {
                gained.put(name, delta);
            }
        });
        Phase phase = new Phase(runs, cluster.filerBytes() - before, gained);
        ClusterBench.progress(String.format(Locale.ROOT, "xdfs: mix %s %s: mean response %.1f s, makespan %.1f s,"
                + " %.1f MiB from the filer", mix.name(), what, phase.meanResponse(), phase.makespan(),
                phase.filerBytes() / 1048576.0));
        return phase;
    }
}
