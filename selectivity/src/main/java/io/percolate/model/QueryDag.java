package io.percolate.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The jobs of one query and their dependencies. Construction checks that stage ids are unique
 * (alternatives included), that every parent is a job of the DAG and that there is no cycle, so
 * every consumer can rely on a well-formed DAG.
 */
public record QueryDag(List<JobNode> jobs) {
    /**
     * More jobs than any Hive query plans; a descriptor beyond it is refused, so a claim cannot
     * make the scheduler's work per query grow without bound.
     */
    public static final int MAX_JOBS = 1000;

    public QueryDag {
        jobs = List.copyOf(jobs);
        if (jobs.size() > MAX_JOBS) {
            throw new IllegalArgumentException(jobs.size() + " jobs, over the limit of " + MAX_JOBS);
        }
        Map<String, JobNode> byStage = new HashMap<>();
        for (JobNode job : jobs) {
            for (String id : stageIds(job)) {
                if (byStage.putIfAbsent(id, job) != null) {
                    throw new IllegalArgumentException("stage " + id + " appears twice");
                }
            }
        }
        for (JobNode job : jobs) {
            for (String parent : job.parents()) {
                JobNode p = byStage.get(parent);
                if (p == null || !p.stageId().equals(parent)) {
                    throw new IllegalArgumentException(job.stageId() + " has unknown parent " + parent);
                }
            }
        }
        requireAcyclic(jobs);
        if (!Double.isFinite(jobs.stream().mapToDouble(j -> j.estimate().wrd()).sum())) {
            throw new IllegalArgumentException("total WRD is not finite");
        }
    }

    /** The job whose stage id, or one of whose alternatives, is {@code stageId}. */
    public Optional<JobNode> job(String stageId) {
        for (JobNode job : jobs) {
            if (job.stageId().equalsIgnoreCase(stageId)
                    || job.alternatives().stream().anyMatch(a -> a.equalsIgnoreCase(stageId))) {
                return Optional.of(job);
            }
        }
        return Optional.empty();
    }

    /** Stage ids of the jobs that list {@code stageId} as a parent. */
    public List<String> children(String stageId) {
        List<String> children = new ArrayList<>();
        for (JobNode job : jobs) {
            if (job.parents().contains(stageId)) {
                children.add(job.stageId());
            }
        }
        return children;
    }

    /**
     * Each job's depth: the number of jobs on the longest path from it to the query's last job
     * (a job nothing depends on has depth 1). LoDFA serves deeper jobs first, because they
     * head the longest remaining chains. Computed in reverse topological order, without
     * recursion, in time linear in jobs and edges.
     */
    public Map<String, Integer> depths() {
        Map<String, Integer> depth = new LinkedHashMap<>();
        List<String> order = topologicalOrder(jobs);
        Map<String, JobNode> byStage = new HashMap<>();
        jobs.forEach(j -> byStage.put(j.stageId(), j));
        for (String stage : order) {
            depth.put(stage, 1);
        }
        for (int i = order.size() - 1; i >= 0; i--) {
            String stage = order.get(i);
            int below = depth.get(stage);
            for (String parent : byStage.get(stage).parents()) {
                depth.merge(parent, below + 1, Math::max);
            }
        }
        Map<String, Integer> inJobOrder = new LinkedHashMap<>();
        jobs.forEach(j -> inJobOrder.put(j.stageId(), depth.get(j.stageId())));
        return inJobOrder;
    }

    /** The largest depth of any job: the number of jobs on the query's longest chain. */
    public int height() {
        return depths().values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /**
     * The heaviest chain of jobs: the largest sum of {@code weight} along any path from a job
     * with no parents to a job nothing depends on. With job times as weights it is the
     * query's critical path, which no number of containers can shorten.
     */
    public double longestPath(ToDoubleFunction<JobNode> weight) {
        return longestPath(parentsFirst(), weight);
    }

    /**
     * {@link #longestPath(ToDoubleFunction)} over a DAG's {@link #parentsFirst} order, for a caller
     * that weighs the same DAG often and keeps the order rather than sort it each time.
     */
    public static double longestPath(List<JobNode> parentsFirst, ToDoubleFunction<JobNode> weight) {
        Map<String, Double> finish = new HashMap<>();
        double longest = 0;
        for (JobNode job : parentsFirst) {
            double start = 0;
            for (String parent : job.parents()) {
                start = Math.max(start, finish.getOrDefault(parent, 0.0));
            }
            double end = start + weight.applyAsDouble(job);
            finish.put(job.stageId(), end);
            longest = Math.max(longest, end);
        }
        return longest;
    }

    /** The jobs in a topological order: every job after its parents. */
    public List<JobNode> parentsFirst() {
        Map<String, JobNode> byStage = new HashMap<>();
        jobs.forEach(j -> byStage.put(j.stageId(), j));
        return topologicalOrder(jobs).stream().map(byStage::get).toList();
    }

    /** Sum of the jobs' estimated WRD, in container-seconds. */
    public double totalWrd() {
        return jobs.stream().mapToDouble(j -> j.estimate().wrd()).sum();
    }

    private static List<String> stageIds(JobNode job) {
        List<String> ids = new ArrayList<>(job.alternatives());
        ids.add(0, job.stageId());
        return ids;
    }

    private static void requireAcyclic(List<JobNode> jobs) {
        if (topologicalOrder(jobs).size() != jobs.size()) {
            throw new IllegalArgumentException("the job graph has a cycle");
        }
    }

    /** Kahn's algorithm: parents before children; a cycle leaves its jobs out. */
    private static List<String> topologicalOrder(List<JobNode> jobs) {
        Map<String, Integer> pendingParents = new HashMap<>();
        Map<String, List<String>> children = new HashMap<>();
        for (JobNode job : jobs) {
            pendingParents.put(job.stageId(), new HashSet<>(job.parents()).size());
            for (String parent : new HashSet<>(job.parents())) {
                children.computeIfAbsent(parent, k -> new ArrayList<>()).add(job.stageId());
            }
        }
        Deque<String> ready = new ArrayDeque<>();
        for (JobNode job : jobs) {
            if (pendingParents.get(job.stageId()) == 0) {
                ready.add(job.stageId());
            }
        }
        List<String> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            String stage = ready.poll();
            order.add(stage);
            for (String child : children.getOrDefault(stage, List.of())) {
                if (pendingParents.merge(child, -1, Integer::sum) == 0) {
                    ready.add(child);
                }
            }
        }
        return order;
    }
}
