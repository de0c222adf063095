package io.percolate.sim.cluster;

/**
 * The simulated cluster: identical nodes, each with room for {@code containersPerNode}
 * containers of {@code containerMb} MB and one vcore; every container (AM or task) is that size.
 *
 * @param heartbeatMillis interval of node and ApplicationMaster heartbeats
 * @param updateMillis    interval of the scheduler's update (FairScheduler's update thread)
 */
public record ClusterSpec(int nodes, int containersPerNode, int containerMb, long heartbeatMillis, long updateMillis) {
    public static final int DEFAULT_CONTAINER_MB = 1024;
    public static final long DEFAULT_HEARTBEAT_MILLIS = 1000;
    /** FairScheduler's default update interval */
    public static final long DEFAULT_UPDATE_MILLIS = 500;

    public ClusterSpec {
        if (nodes < 1 || containersPerNode < 1 || containerMb < 1) {
            throw new IllegalArgumentException("nodes, containers per node and container MB must be >= 1");
        }
        if (heartbeatMillis < 1 || updateMillis < 1) {
            throw new IllegalArgumentException("heartbeat and update intervals must be >= 1 ms");
        }
        if (heartbeatMillis % updateMillis != 0) {
            throw new IllegalArgumentException("the heartbeat interval must be a multiple of the update interval");
        }
    }

    public static ClusterSpec of(int nodes, int containersPerNode) {
        return new ClusterSpec(nodes, containersPerNode, DEFAULT_CONTAINER_MB, DEFAULT_HEARTBEAT_MILLIS,
                DEFAULT_UPDATE_MILLIS);
    }

    public int containers() {
        return nodes * containersPerNode;
    }

    public long nodeMb() {
        return (long) containersPerNode * containerMb;
    }
}
