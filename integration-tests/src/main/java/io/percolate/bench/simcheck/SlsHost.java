package io.percolate.bench.simcheck;

import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.sim.cluster.ClusterSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The workload through YARN's Scheduler Load Simulator (SLS 3.4.2): a real ResourceManager with
 * simulated NodeManagers and ApplicationMasters, in wall-clock time, one JVM per scheduler
 * ({@link SlsMain}), each scheduler in SLS's wrapper with one race closed ({@link AddedAttempts}).
 * Naming our subclass of SLS's CapacityScheduler wrapper also keeps SLS from adding the preemption
 * monitor it forces on the stock class: preemption is off on every host.
 */
final class SlsHost implements Host {
    private final ClusterSpec cluster;
    private final Path trace;
    private final Path workDir;

    SlsHost(ClusterSpec cluster, Path trace, Path workDir) {
        this.cluster = cluster;
        this.trace = trace;
        this.workDir = workDir;
    }

    @Override
    public Map<String, Double> run(String scheduler, List<MixJob> jobs) throws IOException, InterruptedException {
        Path out = workDir.resolve(scheduler);
        Files.createDirectories(out);
        long last = jobs.stream().mapToLong(MixJob::submitMillis).max().orElse(0);
        long timeoutSeconds = last / 1000 + 1800;
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
        command.addAll(MiniPercolateCluster.jdkOpenFlags());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SlsMain.class.getName(), scheduler,
                trace.toAbsolutePath().toString(), out.toAbsolutePath().toString(), String.valueOf(cluster.nodes()),
                String.valueOf(cluster.containersPerNode()), String.valueOf(cluster.vcoresPerNode()),
                String.valueOf(timeoutSeconds)));
        Process sls = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(out.resolve("sls.log").toFile()).start();
        if (!sls.waitFor(timeoutSeconds + 120, TimeUnit.SECONDS)) {
            sls.destroyForcibly();
            throw new IOException("SLS under " + scheduler + " did not finish; see " + out.resolve("sls.log"));
        }
        if (sls.exitValue() != 0) {
            throw new IOException("SLS under " + scheduler + " exited with " + sls.exitValue() + "; see "
                    + out.resolve("sls.log"));
        }
        return responses(jobs, Files.readAllLines(out.resolve(SlsMain.APPS)));
    }

    /**
     * Each job's response, from the application SLS started at the job's submission time with its
     * task count (jobs alike in both are interchangeable): from its AM's first step, which submits
     * the application, to its last.
     */
    static Map<String, Double> responses(List<MixJob> jobs, List<String> apps) throws IOException {
        List<String[]> rows = new ArrayList<>(apps.subList(1, apps.size()).stream().map(l -> l.split(",")).toList());
        Map<String, Double> response = new LinkedHashMap<>();
        for (MixJob job : jobs) {
            String[] row = rows.stream()
                    .filter(r -> Long.parseLong(r[1]) == job.submitMillis() && Integer.parseInt(r[2]) == job.tasks())
                    .findFirst()
                    .orElseThrow(() -> new IOException("SLS ran no application like " + job));
            rows.remove(row);
            response.put(job.id(), (Long.parseLong(row[4]) - Long.parseLong(row[3])) / 1000.0);
        }
        return response;
    }
}
