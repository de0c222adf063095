package io.percolate.bench.xdfs;

import java.lang.management.ManagementFactory;

/**
 * CPU time of the benchmark's own JVM, which runs every mini-cluster daemon (NameNode, DataNodes,
 * ResourceManager, NodeManagers) and the cache fills it starts: with the task JVMs' counters, where
 * a phase's CPU went.
 */
final class ClusterCpu {
    private ClusterCpu() {
    }

    /** This process's CPU time so far, nanoseconds; 0 where the JVM does not report it. */
    static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }
}
