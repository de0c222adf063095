package io.percolate.sim.cluster;

import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;
import io.percolate.model.SizeSource;
import io.percolate.model.TableRef;
import io.percolate.sim.BenchSettings;
import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.TpchShapes;
import io.percolate.sim.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tasks sharing their node's cores: a node that offers more containers than it has cores runs
 * every task more slowly once its tasks outnumber its cores, as processor sharing; the cluster's
 * throughput is its cores', so an offered load is a share of them. Nodes on one machine (the
 * mini-cluster's) share one pool of cores.
 */
final class TestTaskCores {

    private static final long MIB = 1024 * 1024;

    /** One job: {@code maps} maps of 10 s of compute over 64 MiB of lineitem each, one reduce of 5 s. */
    private static SimQuery job(String id, long arrivalSeconds, int maps) {
        TableRef input = new TableRef("tpch.lineitem", maps * 64 * MIB, 0, SizeSource.METASTORE);
        QueryDag dag = new QueryDag(List.of(TpchShapes.job("Stage-1", List.of(), OperatorKind.EXTRACT, List.of(input),
                maps, 1, new TpchShapes.TaskTimes(10, 5))));
        return new SimQuery(id, arrivalSeconds * 1000, 0, "job", dag);
    }

    /** The response of each job on one node of 4 containers (the AM and three tasks) and {@code cores} cores. */
    private static double response(double cores, DataSources sources, SimQuery... jobs) {
        return response(ClusterSpec.of(1, 4).withCores(cores), sources, jobs);
    }

    private static double response(ClusterSpec cluster, DataSources sources, SimQuery... jobs) {
        Workload workload = new Workload("jobs", 1, List.of("all"), List.of(jobs));
        return new Simulation(cluster, SimUser.current(), MemoryLocality.OFF, sources, StartupCosts.NONE)
                .run(workload, Schedulers.create("fair")).response(jobs[0].id());
    }

    @Test
    void tasksBeyondTheCores_shareThem_andFewerTasksRunAtFullSpeed() {
        double fullSpeed = response(0, DataSources.HDFS, job("q", 0, 3));
        // one core: the three maps run together at a third of it each (30 s, not 10); the reduce runs alone
        assertEquals(fullSpeed + 20, response(1, DataSources.HDFS, job("q", 0, 3)), 1e-9);
        // two cores: 15 s for the maps
        assertEquals(fullSpeed + 5, response(2, DataSources.HDFS, job("q", 0, 3)), 1e-9);
        // as many cores as tasks: no one is slowed
        assertEquals(fullSpeed, response(3, DataSources.HDFS, job("q", 0, 3)), 1e-9);
        // a single map never shares: 10 s on one core as with a core per container
        assertEquals(response(0, DataSources.HDFS, job("q", 0, 1)), response(1, DataSources.HDFS, job("q", 0, 1)), 1e-9);
    }

    @Test
    void nodesOnOneMachine_poolTheirCores_soAnIdleNodesCoreServesABusyNode() {
        // FairScheduler assigns both maps at the first heartbeat after the ask, on one node; the other idles
        ClusterSpec twoNodes = ClusterSpec.of(2, 4).withCores(1);
        double fullSpeed = response(ClusterSpec.of(2, 4), DataSources.HDFS, job("q", 0, 2));
        // each node its own core: the two maps share one, 20 s instead of 10
        assertEquals(fullSpeed + 10, response(twoNodes, DataSources.HDFS, job("q", 0, 2)), 1e-9);
        // one machine of two cores: each map has a core
        assertEquals(fullSpeed, response(twoNodes.onOneMachine(true), DataSources.HDFS, job("q", 0, 2)), 1e-9);
        // three maps on the two pooled cores: 15 s
        assertEquals(response(ClusterSpec.of(2, 4), DataSources.HDFS, job("q", 0, 3)) + 5,
                response(twoNodes.onOneMachine(true), DataSources.HDFS, job("q", 0, 3)), 1e-9);
    }

    @Test
    void aTaskReadingTheFiler_endsWhenBothItsReadAndItsShareOfTheCoresAreDone() {
        // the maps' compute on one core takes 30 s; their reads of 64 MiB at a third of 10 MiB/s each take 19.2 s
        DataSources slowCompute = new DataSources(10, 0, 200);
        assertEquals(response(1, DataSources.HDFS, job("q", 0, 3)), response(1, slowCompute, job("q", 0, 3)), 1e-9);
        // at 2 MiB/s the reads take 96 s: the read decides, as with a core per container
        DataSources slowFiler = new DataSources(2, 0, 200);
        assertEquals(response(0, slowFiler, job("q", 0, 3)), response(1, slowFiler, job("q", 0, 3)), 1e-9);
    }

    @Test
    void benchSettings_offerTheLoadToTheCores_andOneCountOfCoresPerNode() {
        BenchSettings shared = BenchSettings.parse("--nodes", "10", "--containers-per-node", "8", "--task-cores", "2");
        assertEquals(2.0, shared.cluster().coresPerNode());
        assertEquals(20, shared.cluster().fullSpeedTasks());
        assertEquals(80, BenchSettings.parse("--nodes", "10", "--containers-per-node", "8").cluster().fullSpeedTasks());
        // more cores than containers: the containers bound it
        assertEquals(80, BenchSettings.parse("--nodes", "10", "--containers-per-node", "8", "--task-cores", "16")
                .cluster().fullSpeedTasks());
        // the starts and the tasks of a node share its one set of cores
        assertThrows(IllegalArgumentException.class,
                () -> BenchSettings.parse("--task-cores", "2", "--task-start-s", "1", "--start-cores", "4"));
        assertEquals(2.0, BenchSettings.parse("--task-cores", "2", "--task-start-s", "1", "--start-cores", "2")
                .cluster().coresPerNode());
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--task-cores", "-1"));
        // one machine pools the cores of starts or tasks; with neither it has nothing to pool
        assertTrue(BenchSettings.parse("--task-cores", "1", "--one-machine", "true").cluster().oneMachine());
        assertFalse(BenchSettings.parse("--task-cores", "1").cluster().oneMachine());
        assertThrows(IllegalArgumentException.class, () -> BenchSettings.parse("--one-machine", "true"));
        assertThrows(IllegalArgumentException.class,
                () -> BenchSettings.parse("--task-cores", "1", "--one-machine", "yes"));
    }
}
