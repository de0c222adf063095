package io.percolate.bench.simcheck;

import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.DataSources;
import io.percolate.sim.cluster.MemoryLocality;
import io.percolate.sim.cluster.Simulation;
import io.percolate.sim.cluster.StartupCosts;
import io.percolate.sim.report.RunResult;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.TpchShapes;
import io.percolate.sim.workload.Workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workload in our simulator, as {@code bench sched} runs it: every job a plain YARN application
 * (no descriptor, no tags), tasks taking their trace times plus the given start-up costs. It keeps
 * the mean starts each scheduler's run paid, to set beside those the real cluster measured.
 */
final class SimulatorHost implements Host {
    private final ClusterSpec cluster;
    private final StartupCosts costs;
    private final Map<String, RunResult.Starts> starts = new LinkedHashMap<>();

    SimulatorHost(ClusterSpec cluster, StartupCosts costs) {
        this.cluster = cluster;
        this.costs = costs;
    }

    @Override
    public Map<String, Double> run(String scheduler, List<MixJob> jobs) {
        List<String> bins = SynthMix.classesOf(jobs);
        List<SimQuery> queries = jobs.stream()
                .map(j -> new SimQuery(j.id(), j.submitMillis(), bins.indexOf(j.jobClass()), "job", dag(j), false))
                .toList();
        RunResult run = new Simulation(cluster, SynthMix.USER, MemoryLocality.OFF, DataSources.HDFS, costs)
                .run(new Workload("simcheck", 0, bins, queries), Schedulers.create(scheduler));
        starts.put(scheduler, run.starts());
        Map<String, Double> response = new LinkedHashMap<>();
        jobs.forEach(j -> response.put(j.id(), run.response(j.id())));
        return response;
    }

    /** The mean starts of each scheduler's last run. */
    Map<String, RunResult.Starts> starts() {
        return Map.copyOf(starts);
    }

    private static QueryDag dag(MixJob j) {
        return new QueryDag(List.of(TpchShapes.job("Stage-1", List.of(), OperatorKind.EXTRACT, List.of(),
                j.maps(), j.reduces(), new TpchShapes.TaskTimes(j.mapMillis() / 1000.0, j.reduceMillis() / 1000.0))));
    }
}
