package io.percolate.bench.simcheck;

import io.percolate.scheduler.TlsScheduler;
import io.percolate.sim.adapter.Schedulers;
import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.sls.SLSRunner;
import org.apache.hadoop.yarn.sls.appmaster.AMSimulator;
import org.apache.hadoop.yarn.sls.conf.SLSConfiguration;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One SLS run, in a JVM of its own (SLS keeps static state and ends its JVM when done): the trace
 * under one scheduler, configured exactly as the simulator configures it. Writes {@value #APPS}: per
 * application its trace start, task count and simulated start and end, in milliseconds.
 *
 * <p>{@code SlsMain <scheduler> <trace.json> <out dir> <nodes> <containers per node> <vcores per node> <timeout s>}
 */
public final class SlsMain {
    static final String APPS = "apps.csv";

    private SlsMain() {
    }

    public static void main(String[] args) throws Exception {
        String scheduler = args[0];
        Path trace = Path.of(args[1]);
        Path out = Path.of(args[2]);
        ClusterSpec cluster = ClusterSpec.of(Integer.parseInt(args[3]), Integer.parseInt(args[4]))
                .withVcores(Integer.parseInt(args[5]));
        long deadline = System.currentTimeMillis() + Long.parseLong(args[6]) * 1000;
        Files.createDirectories(out.resolve("conf"));

        // SLS's nodes (node1, node2, …) resolve nowhere: container tokens name them, not their address
        SecurityUtil.setTokenServiceUseIp(false);
        SLSRunner sls = new SLSRunner(configuration(scheduler, cluster, out.resolve("conf")));
        sls.run(new String[] {"-tracetype", "SYNTH", "-tracelocation", trace.toString(), "-output", out.toString()});
        while (sls.getRemainingApps() > 0) {
            if (System.currentTimeMillis() > deadline) {
                System.err.println("SLS: " + sls.getRemainingApps() + " applications still running at the timeout");
                System.exit(3);
            }
            Thread.sleep(500);
        }
        writeApps(sls, out);
        System.exit(0);
    }

    /** The simulator's configuration of the scheduler, SLS's nodes and containers sized as the simulator's. */
    private static YarnConfiguration configuration(String scheduler, ClusterSpec cluster, Path workDir)
            throws IOException {
        YarnConfiguration conf = Schedulers.configuration(scheduler, cluster, workDir);
        String stock = conf.get(YarnConfiguration.RM_SCHEDULER);
        conf.set(YarnConfiguration.RM_SCHEDULER, TlsScheduler.class.getName().equals(stock)
                ? SlsTlsScheduler.class.getName() : SlsStockSchedulers.BY_STOCK.get(stock));
        // the jar carries no sls-runner.xml: the trace's "mapreduce" jobs need their AM named here
        conf.set(SLSConfiguration.AM_TYPE_PREFIX + "mapreduce", SubmittedAtTraceTime.class.getName());
        conf.setInt(SLSConfiguration.NM_MEMORY_MB, (int) cluster.nodeMb());
        conf.setInt(SLSConfiguration.NM_VCORES, cluster.vcoresPerNode());
        conf.setInt(SLSConfiguration.CONTAINER_MEMORY_MB, cluster.containerMb());
        conf.setInt(SLSConfiguration.CONTAINER_VCORES, 1);
        conf.setInt(SLSConfiguration.AM_CONTAINER_MEMORY, cluster.containerMb());
        conf.setInt(SLSConfiguration.AM_CONTAINER_VCORES, 1);
        conf.setLong(SLSConfiguration.NM_HEARTBEAT_INTERVAL_MS, cluster.heartbeatMillis());
        conf.setLong(SLSConfiguration.AM_HEARTBEAT_INTERVAL_MS, cluster.heartbeatMillis());
        conf.setInt(SLSConfiguration.METRICS_WEB_ADDRESS_PORT, freePort());
        // the ResourceManager's servers on free ports: SLS calls them in-process, nothing connects
        for (String key : List.of(YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
                YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
                YarnConfiguration.RM_WEBAPP_ADDRESS)) {
            conf.set(key, "localhost:0");
        }
        return conf;
    }

    /** SLS's per-application log joined with each application's task count, which tells the jobs apart. */
    private static void writeApps(SLSRunner sls, Path out) throws IOException {
        List<String> lines = new ArrayList<>(List.of("app,trace_start_ms,tasks,start_ms,end_ms"));
        List<String> runtimes = Files.readAllLines(out.resolve("jobruntime.csv"));
        for (String line : runtimes.subList(1, runtimes.size())) {
            String[] f = line.split(",");
            AMSimulator am = sls.getAMSimulatorByAppId(ApplicationId.fromString(f[0]));
            lines.add(String.join(",", f[0], f[1], String.valueOf(am.getNumTasks()), f[3], f[4]));
        }
        Files.write(out.resolve(APPS), lines);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
