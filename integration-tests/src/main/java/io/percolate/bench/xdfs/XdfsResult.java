package io.percolate.bench.xdfs;

import java.util.Map;

/**
 * One run's measurements (seconds, MiB/s) and the ratios computed from them.
 *
 * @param reuseSeconds the I/O-bound job's time on xdfs by the fraction of its input cached
 * @param nfsBytes bytes read from the filer by all processes, per phase
 * @param runs     the ingest copy and the four cold-vs-ingest jobs, with the CPU each cost
 */
record XdfsResult(XdfsBenchSettings settings, int cpuRounds, double ingestCopySeconds, double hdfsScanSeconds,
                  double hdfsDigestSeconds, double coldScanSeconds, double coldDigestSeconds,
                  Map<Double, Double> reuseSeconds, CapRun cap, double cachedReadMbPerSecond,
                  double hdfsReadMbPerSecond, Map<String, Long> nfsBytes, Map<String, BenchJobs.Run> runs,
                  double runSeconds) {
    static final double TARGET_COLD_IO = 0.84;
    static final double TARGET_COLD_CPU = 0.72;
    static final double TARGET_REUSE_08 = 1.05;
    static final double TARGET_CAP_ERROR = 0.05;
    static final double TARGET_CACHED_READ = 0.95;

    XdfsResult {
        reuseSeconds = Map.copyOf(reuseSeconds);
        nfsBytes = Map.copyOf(nfsBytes);
        runs = Map.copyOf(runs);
    }

    /** Cold xdfs against ingest-then-compute (copy, then the job on HDFS), I/O-bound job. */
    double coldVsIngestIo() {
        return coldScanSeconds / (ingestCopySeconds + hdfsScanSeconds);
    }

    double coldVsIngestCpu() {
        return coldDigestSeconds / (ingestCopySeconds + hdfsDigestSeconds);
    }

    /**
     * The CPU-bound job's compute time as a multiple of reading its input from the filer, as it
     * came out: what the digest job took on HDFS beyond the scan job, over the filer's read time.
     */
    double measuredCpuFactor() {
        return (hdfsDigestSeconds - hdfsScanSeconds) / settings.nfsReadSeconds();
    }

    /** The I/O-bound job with the given fraction cached, against the same job with all input in HDFS. */
    double reuseVsHdfs(double ratio) {
        return reuseSeconds.get(ratio) / hdfsScanSeconds;
    }

    double cachedReadVsHdfs() {
        return cachedReadMbPerSecond / hdfsReadMbPerSecond;
    }
}
