package io.percolate.xdfs.manager.api;

import java.util.List;

/**
 * How much of each coming job's input the cache holds, for the compute scheduler (MixApart's
 * Algorithm 1: TlsScheduler passes over a job whose input is still on the filer). Lists the
 * unfinished jobs of the queries the manager prefetches for that read {@code xdfs://} tables.
 */
public record InputReadinessReport(List<JobInput> jobs) {

    public InputReadinessReport {
        jobs = List.copyOf(jobs);
    }

    /**
     * @param queryId the query, as its YARN tags name it
     * @param stage   the job's stage in the query's descriptor
     * @param blocks  cache blocks of its xdfs inputs
     * @param cached  of those, blocks cached now
     */
    public record JobInput(String queryId, String stage, int blocks, int cached) {
    }
}
