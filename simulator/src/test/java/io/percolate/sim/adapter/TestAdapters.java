package io.percolate.sim.adapter;

import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.cluster.SimUser;
import io.percolate.sim.cluster.Simulation;
import io.percolate.sim.report.RunResult;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.TpchShapes;
import io.percolate.sim.workload.Workload;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every registered scheduler and ablation runs a one-query workload to the end, in exactly the
 * time the heartbeat protocol allows on an empty cluster.
 */
final class TestAdapters {
    static List<String> schedulers() {
        return Stream.concat(Schedulers.names().stream(), Schedulers.variants().stream()).toList();
    }

    /**
     * Q1-like chain on 2 nodes × 4 containers: Stage-1 (4 maps × 10 s, 1 reduce × 20 s), then
     * Stage-2 (1 map × 10 s, 1 reduce × 20 s). On the 1-second heartbeat grid, Stage-1 arrives at
     * 0 s on a grid point: its AM is allocated by the node heartbeats at 0 s and taken by the AM
     * heartbeat that follows; the launch is reported at 1 s (maps asked), the maps allocated at
     * 2 s run to 12 s, are reported at 12 s (reduce asked), the reduce allocated at 13 s runs to
     * 33 s and is reported at 33 s: the job ends, 33 s. Stage-2 is submitted then, just after that
     * instant's node heartbeats, so its AM waits for the next (34 s): 34 s for the same protocol,
     * 67 s in all.
     */
    @ParameterizedTest
    @MethodSource("schedulers")
    void oneQuery_runsToCompletionInProtocolTime(String name) {
        Workload workload = new Workload("one", 1, List.of("all"), List.of(
                new SimQuery("solo", 0, 0, "chain2", TpchShapes.chain2(4, new TpchShapes.TaskTimes(10, 20)))));
        RunResult result = new Simulation(ClusterSpec.of(2, 4), SimUser.current())
                .run(workload, Schedulers.create(name));
        assertEquals(name, result.scheduler());
        assertEquals(67.0, result.response("solo"), 0.001, name);
        // Stage-1's AM exits at 33 s and Stage-2's starts at 34 s: one second with no container
        assertEquals(1.0, result.byId().get("solo").stallSeconds(), 0.001, name);
    }

    @Test
    void ablations_turnOffOnlyTheRuleTheyAreNamedFor(@TempDir Path workDir) throws IOException {
        String guard = "percolate.scheduler.qef.fairness";
        String sharing = "percolate.scheduler.lodfa.input-sharing";
        YarnConfiguration tls = configuration("tls", workDir);
        YarnConfiguration noGuard = configuration("tls-noguard", workDir);
        YarnConfiguration noShare = configuration("tls-noshare", workDir);
        // TLS keeps TlsScheduler's defaults (both rules on); each ablation sets its one key
        assertEquals(Arrays.asList(null, null), Arrays.asList(tls.get(guard), tls.get(sharing)));
        assertEquals(Arrays.asList("false", null), Arrays.asList(noGuard.get(guard), noGuard.get(sharing)));
        assertEquals(Arrays.asList(null, "false"), Arrays.asList(noShare.get(guard), noShare.get(sharing)));
    }

    private static YarnConfiguration configuration(String name, Path workDir) throws IOException {
        return Schedulers.configuration(name, ClusterSpec.of(2, 4), Files.createDirectories(workDir.resolve(name)));
    }
}
