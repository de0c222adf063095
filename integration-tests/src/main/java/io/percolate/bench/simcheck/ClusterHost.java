package io.percolate.bench.simcheck;

import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.it.cluster.MiniPercolateCluster.SchedulerKind;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.SleepJob;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The workload on a real mini-cluster: HDFS, a ResourceManager running the named scheduler, real
 * NodeManagers and MapReduce ApplicationMasters, and Hadoop's SleepJob for each job (its tasks sleep
 * their trace time in containers of their own). One fresh cluster per scheduler. What the jobs paid
 * besides their work is measured as they ran ({@link #measured()}).
 */
final class ClusterHost implements Host {
    /** Real containers are smaller than simulated ones: their count, not their size, is what is compared. */
    static final int CONTAINER_MB = 512;

    private final int nodes;
    private final int containersPerNode;
    private final Path workDir;
    private final MeasuredStartup measured = new MeasuredStartup();

    ClusterHost(int nodes, int containersPerNode, Path workDir) {
        this.nodes = nodes;
        this.containersPerNode = containersPerNode;
        this.workDir = workDir;
    }

    @Override
    public Map<String, Double> run(String scheduler, List<MixJob> jobs) throws Exception {
        SchedulerKind kind = SchedulerKind.of(scheduler);
        Path dir = Files.createDirectories(workDir.resolve(scheduler));
        MiniPercolateCluster.Spec spec = new MiniPercolateCluster.Spec(dir, nodes, containersPerNode * CONTAINER_MB,
                CONTAINER_MB, false, kind);
        try (MiniPercolateCluster cluster = MiniPercolateCluster.start(spec)) {
            Configuration conf = cluster.conf();
            // reduces start when the maps are done, as in the simulator and SLS (MapReduce's default: at 5 %)
            conf.setFloat("mapreduce.job.reduce.slowstart.completedmaps", 1.0f);
            conf.setInt("mapreduce.client.completion.pollinterval", 200);
            ExecutorService clients = Executors.newFixedThreadPool(jobs.size());
            try {
                long start = System.currentTimeMillis();
                Map<String, Future<Double>> running = new LinkedHashMap<>();
                for (MixJob job : jobs) {
                    running.put(job.id(), clients.submit(() -> submitAndWait(conf, job, start + job.submitMillis())));
                }
                Map<String, Double> response = new LinkedHashMap<>();
                for (Map.Entry<String, Future<Double>> e : running.entrySet()) {
                    response.put(e.getKey(), e.getValue().get());
                }
                measured.read(cluster, jobs, scheduler);
                return response;
            } finally {
                clients.shutdownNow();
            }
        }
    }

    /** The start-up costs of every job run so far, under every scheduler. */
    MeasuredStartup measured() {
        return measured;
    }

    /** Submits at {@code submitAt} (epoch ms); the response runs from then to the job's finish. */
    private static double submitAndWait(Configuration conf, MixJob spec, long submitAt) throws Exception {
        Thread.sleep(Math.max(0, submitAt - System.currentTimeMillis()));
        SleepJob sleep = new SleepJob();
        sleep.setConf(new Configuration(conf));
        Job job = sleep.createJob(spec.maps(), spec.reduces(), spec.mapMillis(), 1, spec.reduceMillis(), 1);
        job.setJobName(spec.id());
        if (!job.waitForCompletion(false)) {
            throw new IOException(spec.id() + " failed: " + job.getStatus().getFailureInfo());
        }
        return (job.getFinishTime() - submitAt) / 1000.0;
    }
}
