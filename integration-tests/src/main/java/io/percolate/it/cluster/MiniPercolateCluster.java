package io.percolate.it.cluster;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.scheduler.QueryAwarePolicy;
import io.percolate.scheduler.TlsScheduler;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A real Hadoop cluster in this JVM: HDFS (MiniDFSCluster) and YARN with MapReduce
 * (MiniMRYarnCluster), whose ResourceManager runs {@link TlsScheduler} with
 * {@link QueryAwarePolicy} on its {@link #TLS_QUEUE} (or a stock scheduler, for benchmarks that
 * compare with one: {@link SchedulerKind}). Containers are real JVMs started by the NodeManagers.
 *
 * <p>A second queue, {@link #FIFO_QUEUE}, orders its applications with FairScheduler's stock
 * {@code fifo} policy under the same scheduler: a control group for tests that compare TLS's
 * order with first come, first served on one cluster (no second cluster to start, no
 * allocation-file reload to wait for). Nothing lands there unless a job names it
 * ({@code mapreduce.job.queuename}).
 */
public final class MiniPercolateCluster implements InProcessHadoop {
    /** Where descriptors go on the cluster's HDFS. */
    public static final String DESCRIPTOR_DIR = "/percolate/descriptors";
    /** Where jobs go by default: applications ordered by their queries. */
    public static final String TLS_QUEUE = "default";
    /** Applications ordered by arrival (FairScheduler's {@code fifo} policy). */
    public static final String FIFO_QUEUE = "fifo";
    /**
     * Each NodeManager's vcores, YARN's default: twice the 4 containers a benchmark node's memory
     * holds, so FairScheduler's AM limit, which counts free vcores, binds on memory (the
     * simulator's {@code --vcores-per-node 8}).
     */
    public static final int NODE_VCORES = 8;

    /** The ResourceManager's scheduler: ours, or a stock one to compare it with. */
    public enum SchedulerKind {
        /** {@link TlsScheduler} with {@link QueryAwarePolicy} on the default queue */
        TLS,
        /** stock FairScheduler, {@code fair} policy */
        FAIR,
        /**
         * stock FairScheduler, {@code fair} policy, no ApplicationMaster limit: its own limit counts
         * free vcores too, where TlsScheduler keeps the room itself, by memory
         */
        FAIR_NOAMLIMIT,
        /** stock CapacityScheduler, one queue, FIFO ordering (its default) */
        CAPACITY;

        /** The name benchmarks use: {@code tls}, {@code fair}, {@code fair-noamlimit}, {@code capacity}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The kind a {@link #label()} names. */
        public static SchedulerKind of(String label) {
            for (SchedulerKind kind : values()) {
                if (kind.label().equals(label)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("unknown scheduler '" + label + "'");
        }
    }

    /**
     * Share of a queue's resources ApplicationMasters may hold, the same under every scheduler:
     * FairScheduler's default {@code maxAMShare}, given to CapacityScheduler too, whose own default
     * (0.1) would run one query at a time on a small cluster and make the comparison about AM
     * limits rather than order.
     */
    static final double AM_SHARE = 0.5;
    private static final EnumSet<YarnApplicationState> UNFINISHED = EnumSet.of(YarnApplicationState.NEW,
            YarnApplicationState.NEW_SAVING, YarnApplicationState.SUBMITTED, YarnApplicationState.ACCEPTED,
            YarnApplicationState.RUNNING);

    /**
     * @param workDir       local directory for all cluster state
     * @param nodeManagers  NodeManagers (and DataNodes)
     * @param nodeMemoryMb  memory each NodeManager offers
     * @param containerMb   memory of every map, reduce and AM container
     * @param uber          run small jobs inside their AM container (faster; tasks get no containers of their own)
     * @param scheduler     the ResourceManager's scheduler
     * @param settings      further ResourceManager configuration, such as TLS's own keys
     */
    public record Spec(java.nio.file.Path workDir, int nodeManagers, int nodeMemoryMb, int containerMb, boolean uber,
                       SchedulerKind scheduler, Map<String, String> settings) {
        public Spec {
            requireNonNull(workDir, "workDir");
            requireNonNull(scheduler, "scheduler");
            settings = Map.copyOf(settings);
            if (nodeManagers < 1 || containerMb < 128 || nodeMemoryMb < containerMb) {
                throw new IllegalArgumentException("bad cluster spec: " + this);
            }
        }

        public Spec(java.nio.file.Path workDir, int nodeManagers, int nodeMemoryMb, int containerMb, boolean uber,
                    SchedulerKind scheduler) {
            this(workDir, nodeManagers, nodeMemoryMb, containerMb, uber, scheduler, Map.of());
        }

        /** A cluster running {@link TlsScheduler}. */
        public Spec(java.nio.file.Path workDir, int nodeManagers, int nodeMemoryMb, int containerMb, boolean uber) {
            this(workDir, nodeManagers, nodeMemoryMb, containerMb, uber, SchedulerKind.TLS);
        }
    }

    private final MiniDFSCluster dfs;
    private final MiniMRYarnCluster yarn;
    private final Configuration conf;

    private MiniPercolateCluster(MiniDFSCluster dfs, MiniMRYarnCluster yarn) {
        this.dfs = dfs;
        this.yarn = yarn;
        this.conf = new Configuration(yarn.getConfig());
    }

    public static MiniPercolateCluster start(Spec spec) throws IOException {
        Configuration conf = new Configuration();
        MiniDFSCluster dfs = MiniHdfs.start(spec.workDir(), spec.nodeManagers(), conf);

        configureScheduler(conf, spec);
        conf.set(DescriptorStore.DIR_KEY, DESCRIPTOR_DIR);
        conf.setInt(YarnConfiguration.NM_PMEM_MB, spec.nodeMemoryMb());
        // MiniYARNCluster gives each NodeManager this key's memory (default 4 GiB), not NM_PMEM_MB's
        conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, spec.nodeMemoryMb());
        conf.setInt(YarnConfiguration.NM_VCORES, NODE_VCORES);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
        // FairScheduler rounds requests up to its increment (default 1 GiB), CapacityScheduler to the
        // minimum: the same step for both, or a 512 MB container is 1 GiB under Fair and TLS alone
        conf.setInt("yarn.resource-types.memory-mb.increment-allocation", 128);
        // Finished applications' container logs go to HDFS (yarn logs reads them there). Kept on the
        // nodes instead, each NodeManager holds every application until its log-retention timer
        // fires and waits for them when it stops: some 35 s per cluster shutdown.
        conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, true);
        conf.set(YarnConfiguration.NM_REMOTE_APP_LOG_DIR, "/tmp/logs");
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        // Client compiler only and the serial collector: on two cores a task JVM spends most of its
        // life starting up, and the C2 and parallel-GC threads of four containers compete for them.
        String javaOpts = "-Xmx" + (spec.containerMb() * 3 / 4) + "m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC "
                + String.join(" ", jdkOpenFlags());
        for (String key : List.of("mapreduce.map.java.opts", "mapreduce.reduce.java.opts",
                "yarn.app.mapreduce.am.command-opts")) {
            conf.set(key, javaOpts);
        }
        for (String key : List.of("mapreduce.map.memory.mb", "mapreduce.reduce.memory.mb",
                "yarn.app.mapreduce.am.resource.mb")) {
            conf.setInt(key, spec.containerMb());
        }
        conf.setBoolean("mapreduce.job.ubertask.enable", spec.uber());
        conf.set("yarn.app.mapreduce.am.staging-dir", "/tmp/hadoop-yarn/staging");
        // TLS's registry view on a free port (TlsConfig's default is a fixed one): clusters in
        // other test JVMs may be running
        conf.set("percolate.scheduler.http-address", "127.0.0.1:0");
        spec.settings().forEach(conf::set);

        // MiniYARNCluster empties target/test/data/<name> as it is built: a name of this JVM's own,
        // so a cluster in another test JVM keeps its NodeManagers' directories
        MiniMRYarnCluster yarn = new MiniMRYarnCluster("percolate-" + ProcessHandle.current().pid(), spec.nodeManagers());
        yarn.init(conf);
        yarn.start();
        return new MiniPercolateCluster(dfs, yarn);
    }

    /** The configuration clients use: HDFS, the ResourceManager and MapReduce on YARN. */
    @Override
    public Configuration conf() {
        return new Configuration(conf);
    }

    @Override
    public FileSystem fileSystem() throws IOException {
        return dfs.getFileSystem();
    }

    public ResourceScheduler scheduler() {
        return yarn.getResourceManager().getResourceScheduler();
    }

    /** Every application the ResourceManager knows, finished ones included. */
    public List<ApplicationReport> applications() throws IOException {
        return withYarnClient(YarnClient::getApplications);
    }

    /** Kills every application that has not ended; returns how many. */
    public int killUnfinishedApplications() throws IOException {
        return withYarnClient(client -> {
            List<ApplicationReport> unfinished = client.getApplications(UNFINISHED);
            for (ApplicationReport app : unfinished) {
                client.killApplication(app.getApplicationId());
            }
            return unfinished.size();
        });
    }

    /** A call on a fresh client of this cluster's ResourceManager. */
    private <T> T withYarnClient(YarnCall<T> call) throws IOException {
        try (YarnClient client = YarnClient.createYarnClient()) {
            client.init(conf());
            client.start();
            return call.on(client);
        } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
            throw new IOException(e);
        }
    }

    private interface YarnCall<T> {
        T on(YarnClient client) throws IOException, org.apache.hadoop.yarn.exceptions.YarnException;
    }

    @Override
    public void close() {
        try {
            yarn.stop();
        } finally {
            dfs.shutdown();
        }
    }

    private static void configureScheduler(Configuration conf, Spec spec) throws IOException {
        switch (spec.scheduler()) {
            case TLS, FAIR, FAIR_NOAMLIMIT -> {
                boolean tls = spec.scheduler() == SchedulerKind.TLS;
                conf.set(YarnConfiguration.RM_SCHEDULER, tls ? TlsScheduler.class.getName() : FairScheduler.class.getName());
                conf.set("yarn.scheduler.fair.allocation.file", writeAllocations(spec.workDir(),
                        tls ? QueryAwarePolicy.class.getName() : "fair",
                        spec.scheduler() == SchedulerKind.FAIR_NOAMLIMIT ? -1 : AM_SHARE).toString());
                conf.setBoolean("yarn.scheduler.fair.user-as-default-queue", false); // as root, apps would land in "root"
                conf.setBoolean("yarn.scheduler.fair.preemption", false);
            }
            case CAPACITY -> {
                conf.set(YarnConfiguration.RM_SCHEDULER, CapacityScheduler.class.getName());
                conf.set("yarn.scheduler.capacity.root.queues", TLS_QUEUE);
                conf.set("yarn.scheduler.capacity.root." + TLS_QUEUE + ".capacity", "100");
                conf.setDouble("yarn.scheduler.capacity.maximum-am-resource-percent", AM_SHARE);
            }
        }
    }

    /**
     * The default queue ordered by {@code defaultPolicy}, and the control queue by arrival, both with
     * maxAMShare {@code amShare};
     * {@code fifo} is named on its leaf only because FairScheduler allows it on leaf queues alone.
     */
    private static java.nio.file.Path writeAllocations(java.nio.file.Path workDir, String defaultPolicy,
                                                       double amShare) throws IOException {
        java.nio.file.Path file = workDir.resolve("fair-scheduler.xml");
        Files.writeString(file, """
                <?xml version="1.0"?>
                <allocations>
                  <queueMaxAMShareDefault>%s</queueMaxAMShareDefault>
                  <defaultQueueSchedulingPolicy>%s</defaultQueueSchedulingPolicy>
                  <queue name="%s"/>
                  <queue name="%s">
                    <schedulingPolicy>fifo</schedulingPolicy>
                  </queue>
                </allocations>
                """.formatted(amShare, defaultPolicy, TLS_QUEUE, FIFO_QUEUE));
        return file;
    }

    /**
     * The {@code --add-opens} flags this JVM was started with: containers, and any JVM started to
     * run the same Hive and Hadoop code on the same JDK, need the same ones.
     */
    public static List<String> jdkOpenFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens"))
                .toList();
    }


    /** The descriptor directory on this cluster's file system. */
    public Path descriptorDir() throws IOException {
        return fileSystem().makeQualified(new Path(DESCRIPTOR_DIR));
    }
}
