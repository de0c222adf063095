package io.percolate.sim.cluster;

/**
 * The simulated cluster: identical nodes, each with room for {@code containersPerNode}
 * containers of {@code containerMb} MB and one vcore; every container (AM or task) is that size.
 *
 * @param vcoresPerNode   the vcores each node offers: as many as its containers by default, as on
 *                        YARN's stock NodeManager (8 GiB, 8 vcores, 1 GiB containers). It matters to
 *                        FairScheduler's AM limit: the fair policy shares memory alone, so the limit's
 *                        vcores are half the cluster's free ones, and where vcores are as many as
 *                        containers a full cluster admits no ApplicationMaster. The real mini-cluster's
 *                        NodeManagers have 8 vcores for 4 containers, and there memory binds.
 * @param heartbeatMillis interval of node and ApplicationMaster heartbeats
 * @param updateMillis    interval of the scheduler's update (FairScheduler's update thread)
 * @param coresPerNode    0: every container runs its task at full speed, as YARN assumes; else the
 *                        node's cores, which the tasks running on it share (processor sharing), as
 *                        on a node that offers more containers than it has cores
 * @param oneMachine      every node on one host, as the mini-cluster's NodeManagers: the nodes' cores
 *                        form one pool that the JVMs starting and the tasks running on any node share,
 *                        so a busy node's work spills onto an idle node's cores; false: each node its
 *                        own cores
 */
public record ClusterSpec(int nodes, int containersPerNode, int containerMb, int vcoresPerNode, long heartbeatMillis,
                          long updateMillis, double coresPerNode, boolean oneMachine) {
    public static final int DEFAULT_CONTAINER_MB = 1024;
    public static final long DEFAULT_HEARTBEAT_MILLIS = 1000;
    /** FairScheduler's default update interval */
    public static final long DEFAULT_UPDATE_MILLIS = 500;

    public ClusterSpec {
        if (nodes < 1 || containersPerNode < 1 || containerMb < 1) {
            throw new IllegalArgumentException("nodes, containers per node and container MB must be >= 1");
        }
        if (vcoresPerNode < containersPerNode) {
            throw new IllegalArgumentException("a node needs a vcore per container: " + vcoresPerNode + " vcores for "
                    + containersPerNode + " containers");
        }
        if (heartbeatMillis < 1 || updateMillis < 1) {
            throw new IllegalArgumentException("heartbeat and update intervals must be >= 1 ms");
        }
        if (heartbeatMillis % updateMillis != 0) {
            throw new IllegalArgumentException("the heartbeat interval must be a multiple of the update interval");
        }
        if (!(coresPerNode >= 0) || Double.isInfinite(coresPerNode)) {
            throw new IllegalArgumentException("cores per node must be >= 0 (0: a core per container), got " + coresPerNode);
        }
    }

    public static ClusterSpec of(int nodes, int containersPerNode) {
        return new ClusterSpec(nodes, containersPerNode, DEFAULT_CONTAINER_MB, containersPerNode,
                DEFAULT_HEARTBEAT_MILLIS, DEFAULT_UPDATE_MILLIS, 0, false);
    }

    /** The same cluster, its tasks sharing {@code cores} cores per node (0: a core per container). */
    public ClusterSpec withCores(double cores) {
        return new ClusterSpec(nodes, containersPerNode, containerMb, vcoresPerNode, heartbeatMillis, updateMillis,
                cores, oneMachine);
    }

    /** The same cluster, its nodes offering {@code vcores} vcores each (0: as many as containers). */
    public ClusterSpec withVcores(int vcores) {
        return new ClusterSpec(nodes, containersPerNode, containerMb, vcores == 0 ? containersPerNode : vcores,
                heartbeatMillis, updateMillis, coresPerNode, oneMachine);
    }

    /** The same cluster, its nodes on one host sharing their cores ({@code true}) or each on its own. */
    public ClusterSpec onOneMachine(boolean one) {
        return new ClusterSpec(nodes, containersPerNode, containerMb, vcoresPerNode, heartbeatMillis, updateMillis,
                coresPerNode, one);
    }

    public int containers() {
        return nodes * containersPerNode;
    }

    /** Whether tasks on a node share its cores rather than each running at full speed. */
    public boolean sharesCores() {
        return coresPerNode > 0;
    }

    /**
     * Tasks the cluster runs at full speed: its containers, or fewer when its cores are fewer. An
     * offered load is a share of this: on a node of fewer cores than containers, more work than its
     * cores can do only queues. Rounded, at least one.
     */
    public int fullSpeedTasks() {
        return (int) Math.max(1, Math.round(nodes * (sharesCores() ? Math.min(containersPerNode, coresPerNode)
                : containersPerNode)));
    }

    public long nodeMb() {
        return (long) containersPerNode * containerMb;
    }
}
