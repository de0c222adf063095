package io.percolate.estimate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Walks a job graph so that every job is estimated after its parents, since a job's input is
 * its parents' output. Parents outside the list are ignored; a cycle is an error.
 */
final class ParentsFirst {
    private ParentsFirst() {
    }

    /** One job's estimate from the job and its parents' results, in the order of {@code job.parents()}. */
    interface Step<R> {
        R apply(JobShape job, List<R> parents);
    }

    static <R> Map<String, R> estimate(List<JobShape> jobs, Step<R> step) {
        Map<String, JobShape> byStage = new HashMap<>();
        jobs.forEach(j -> byStage.put(j.stageId(), j));
        Map<String, R> done = new LinkedHashMap<>();
        for (JobShape job : jobs) {
            visit(job, byStage, done, step, 0);
        }
        return done;
    }

    private static <R> R visit(JobShape job, Map<String, JobShape> byStage, Map<String, R> done, Step<R> step, int depth) {
        R known = done.get(job.stageId());
        if (known != null) {
            return known;
        }
        if (depth > byStage.size()) {
            throw new IllegalArgumentException("the job graph has a cycle through " + job.stageId());
        }
        List<R> parents = new ArrayList<>();
        for (String parent : job.parents()) {
            JobShape p = byStage.get(parent);
            if (p != null) {
                parents.add(visit(p, byStage, done, step, depth + 1));
            }
        }
        R result = step.apply(job, parents);
        done.put(job.stageId(), result);
        return result;
    }
}
