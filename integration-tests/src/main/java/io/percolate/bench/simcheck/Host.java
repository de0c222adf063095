package io.percolate.bench.simcheck;

import java.util.List;
import java.util.Map;

/** Somewhere the checked workload runs under a named scheduler: the simulator, SLS or a real cluster. */
interface Host {
    /** Runs every job under {@code scheduler}; returns each job's response time in seconds, by id. */
    Map<String, Double> run(String scheduler, List<MixJob> jobs) throws Exception;
}
