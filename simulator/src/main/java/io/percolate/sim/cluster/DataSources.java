package io.percolate.sim.cluster;

/**
 * Where map tasks read their input from, when tables live on an NFS filer behind the XDFS cache
 * rather than in HDFS: a map task's time is then max(compute, read), its estimate being the compute
 * and the read its split's bytes over its source's bandwidth. A split in the XDFS cache reads at
 * {@code localMbPerSecond}; any other reads from the filer, whose {@code nfsMbPerSecond} is shared
 * by the tasks reading it at once (each gets an equal share of it when it starts), and then enters
 * the cache (read-through, LRU by split, {@code cacheMb} for the cluster).
 *
 * @param nfsMbPerSecond the filer's bandwidth, MB/s; 0: tables are in HDFS, reads are not modelled
 * @param cacheMb        the XDFS cache, MB, for the whole cluster; 0: every read goes to the filer
 * @param localMbPerSecond a task's read bandwidth from a cache block (HDFS)
 */
public record DataSources(double nfsMbPerSecond, long cacheMb, double localMbPerSecond) {
    public static final DataSources HDFS = new DataSources(0, 0, DataSources.DEFAULT_LOCAL_MB_PER_SECOND);
    public static final double DEFAULT_LOCAL_MB_PER_SECOND = 200;

    public DataSources {
        if (!(nfsMbPerSecond >= 0) || cacheMb < 0 || !(localMbPerSecond > 0)) {
            throw new IllegalArgumentException("NFS bandwidth and cache size must be >= 0, local bandwidth > 0: "
                    + nfsMbPerSecond + ", " + cacheMb + ", " + localMbPerSecond);
        }
    }

    public boolean onNfs() {
        return nfsMbPerSecond > 0;
    }
}
