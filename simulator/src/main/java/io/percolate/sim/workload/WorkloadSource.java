package io.percolate.sim.workload;

/** Makes a workload; one implementation per workload kind, named in {@link Workloads}. */
public interface WorkloadSource {
    /**
     * @param queries    how many queries (a fixed mix may ignore it)
     * @param seed       seed of every random choice
     * @param containers containers of the cluster it will run on, to size arrivals to a load
     */
    Workload generate(int queries, long seed, int containers);
}
