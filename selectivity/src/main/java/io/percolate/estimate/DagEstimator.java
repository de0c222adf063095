package io.percolate.estimate;

import io.percolate.model.JobEstimate;

import java.util.List;
import java.util.Map;

/** Estimates every job of a query, parents before children, so each job's input is its parents' output. */
public interface DagEstimator {
    /**
     * @param observed actual outputs of jobs that already finished, by stage id: they replace
     *                 those jobs' estimated outputs for their children
     * @return an estimate for every job, keyed by stage id
     */
    Map<String, JobEstimate> estimate(List<JobShape> jobs, Map<String, ObservedOutput> observed);

    default Map<String, JobEstimate> estimate(List<JobShape> jobs) {
        return estimate(jobs, Map.of());
    }
}
