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
 * @param prefetchStreams  splits XDFS's transfer scheduler copies from the filer into the cache at
 *                         once, ahead of the tasks, in the bandwidth the tasks' reads leave; 0: none,
 *                         the cache fills only as tasks read through it
 */
public record DataSources(double nfsMbPerSecond, long cacheMb, double localMbPerSecond, int prefetchStreams) {
    public static final DataSources HDFS = new DataSources(0, 0, DataSources.DEFAULT_LOCAL_MB_PER_SECOND);
    public static final double DEFAULT_LOCAL_MB_PER_SECOND = 200;

    public DataSources {
        if (!(nfsMbPerSecond >= 0) || cacheMb < 0 || !(localMbPerSecond > 0) || prefetchStreams < 0) {
            throw new IllegalArgumentException("NFS bandwidth, cache size and prefetch streams must be >= 0, local"
                    + " bandwidth > 0: " + nfsMbPerSecond + ", " + cacheMb + ", " + prefetchStreams + ", "
                    + localMbPerSecond);
        }
    }

    /** Read-through only: no prefetch. */
    public DataSources(double nfsMbPerSecond, long cacheMb, double localMbPerSecond) {
        this(nfsMbPerSecond, cacheMb, localMbPerSecond, 0);
    }

    /** Whether splits are copied into the cache ahead of the tasks. */
    public boolean prefetches() {
        return onNfs() && cacheMb > 0 && prefetchStreams > 0;
    }

    public boolean onNfs() {
        return nfsMbPerSecond > 0;
    }
}
