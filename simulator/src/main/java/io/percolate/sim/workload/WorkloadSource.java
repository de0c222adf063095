package io.percolate.sim.workload;

/** Makes a workload; one implementation per workload kind, named in {@link Workloads}. */
public interface WorkloadSource {
    /**
     * The largest offered load a workload takes. Above 1 its queries arrive faster than the
     * cluster serves them: a burst that the cluster drains after the last arrival, as on the real
     * cluster bench, whose mixes offer a 2-core machine more work than it does while they arrive.
     */
    double MAX_LOAD = 10;

    /**
     * @param queries    how many queries (a fixed mix may ignore it)
     * @param seed       seed of every random choice
     * @param containers tasks the cluster it will run on runs at full speed (its containers, or its cores
     *                   when fewer: {@code ClusterSpec#fullSpeedTasks}), to size arrivals to a load
     * @param load       the offered load in (0, {@link #MAX_LOAD}]: mean work arriving per second over the
     *                   cluster's containers
     */
    Workload generate(int queries, long seed, int containers, double load);

    /** How many queries it makes when the command line does not say. */
    default int defaultQueries() {
        return 20;
    }

    /** Where its size-bin counts come from, reported with the result; empty when it has nothing to say. */
    default String binsSource() {
        return "";
    }
}
