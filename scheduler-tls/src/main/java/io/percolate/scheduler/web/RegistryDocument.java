package io.percolate.scheduler.web;

import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.model.TableRef;
import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.QueryState;
import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.QefSummary;
import io.percolate.scheduler.registry.QueryView;
import io.percolate.scheduler.registry.RegistrySnapshot;
import io.percolate.scheduler.registry.WorkAccount;
import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JSON document {@code GET /percolate/queries} returns: plain records, so the shape is
 * visible in one place and Jackson needs no annotations. Numbers that are not finite, and
 * values that do not apply (no placement, no descriptor, not retired), are null.
 *
 * @param load      ρ of QEF's last ordering
 * @param threshold D = 1/(1-ρ)
 * @param capacity  containers the cluster can run at once
 * @param masters   of those, the containers running ApplicationMasters hold; ρ counts the rest
 * @param parallelism tasks it runs at full speed, as learned (the capacity until contention is seen)
 * @param slow      active queries whose slowdown exceeds D
 * @param active    active queries in service order
 * @param retired   recently retired queries, newest first
 */
record RegistryDocument(Double load, Double threshold, Double capacity, Double masters, Double parallelism, int slow, List<Query> active,
                        List<Query> retired) {

    /**
     * One query.
     *
     * @param position         its place in QEF's order (0 is served first); null before its first
     *                         placement and once retired
     * @param rule             the QEF rule that placed it
     * @param wrd              its descriptor's total estimated WRD, container-seconds
     * @param jobs             the descriptor's DAG; empty without one
     * @param applications     every YARN application of the query and the stage its tag names
     * @param work             the finished jobs' predicted against observed work
     * @param revisions        descriptors re-estimated by the hook from finished jobs, taken after the first
     */
    record Query(String id, String user, String status, String problem, Integer position, String rule,
                 Double slowdown, Double remainingWrd, Double remainingSeconds, Double aloneSeconds,
                 Double sojournSeconds, Double wrd, long firstSeenMillis, Long retiredAtMillis, List<Job> jobs,
                 List<Application> applications, Work work, int revisions) {
    }

    /**
     * A job of the DAG.
     *
     * @param depth jobs on the longest chain from it to the query's last job (LoDFA serves deeper first)
     * @param state running (an application of it runs), finished, or pending (not submitted yet)
     * @param forecastSeconds a finished job's time as TLS forecast it before its first task, from
     *                        when it could start ({@link JobForecast}); for a running job, its
     *                        current forecast; null for the others
     * @param tookSeconds     what a finished job took, from the same moment; null for the others
     */
    record Job(String stage, List<String> parents, int depth, String operator, Double wrd, List<String> inputTables,
               String state, Double forecastSeconds, Double tookSeconds) {
    }

    /** @param state running or finished */
    record Application(String id, String stage, String state) {
    }

    record Work(int jobs, Double predictedSeconds, Double observedSeconds, Double relativeError,
                Double observedFullSpeedSeconds, Double fullSpeedError) {
    }

    static RegistryDocument of(RegistrySnapshot snapshot) {
        QefSummary order = snapshot.order();
        List<Query> active = new ArrayList<>();
        for (int i = 0; i < snapshot.active().size(); i++) {
            QueryView q = snapshot.active().get(i);
            // the registry lists active queries in service order, the unplaced last
            active.add(query(q, q.placement().isPresent() ? i : null));
        }
        return new RegistryDocument(finite(order.load()), finite(order.threshold()), finite(order.capacity()),
                finite(order.masters()), finite(order.parallelism()),
                order.slow(), active, snapshot.retired().stream().map(q -> query(q, null)).toList());
    }

    private static Query query(QueryView q, Integer position) {
        Optional<QueryState> state = q.placement().map(Placement::query);
        return new Query(q.queryId(), q.user(), q.status().name(), q.problem(), position,
                q.placement().map(p -> p.rule().name()).orElse(null),
                state.map(s -> finite(s.slowdown())).orElse(null),
                state.map(s -> finite(s.remainingWrd())).orElse(null),
                state.map(s -> finite(s.remainingSeconds())).orElse(null),
                state.map(s -> finite(s.aloneSeconds())).orElse(null),
                state.map(s -> finite(s.sojournSeconds())).orElse(null),
                q.descriptor().map(d -> finite(d.dag().totalWrd())).orElse(null),
                q.firstSeenMillis(), q.retiredAtMillis().isPresent() ? q.retiredAtMillis().getAsLong() : null,
                q.descriptor().map(d -> jobs(d.dag(), q)).orElse(List.of()),
                applications(q), q.work().map(RegistryDocument::work).orElse(null), q.revisions());
    }

    private static List<Job> jobs(QueryDag dag, QueryView q) {
        Set<String> running = new HashSet<>();
        for (ApplicationId app : q.running()) {
            // tags are lower-cased by YARN and may name an alternative stage: the DAG resolves both
            dag.job(q.stages().getOrDefault(app, "")).ifPresent(j -> running.add(j.stageId()));
        }
        Set<String> finished = Set.copyOf(q.finishedStages());
        Map<String, Integer> depths = dag.depths();
        Map<String, JobForecast> forecasts = new HashMap<>();
        // a forecast names its job by the application's tag, as running jobs are resolved above
        q.forecasts().forEach(f -> dag.job(f.stage()).ifPresent(j -> forecasts.put(j.stageId(), f)));
        Map<String, Double> standing = new HashMap<>();
        q.standing().forEach((tag, seconds) -> dag.job(tag).ifPresent(j -> standing.put(j.stageId(), seconds)));
        List<Job> jobs = new ArrayList<>();
        for (JobNode job : dag.jobs()) {
            String state = running.contains(job.stageId()) ? "running"
                    : finished.contains(job.stageId()) ? "finished" : "pending";
            Optional<JobForecast> finishedForecast = Optional.ofNullable(forecasts.get(job.stageId()));
            Double forecast = state.equals("running") ? standing.get(job.stageId())
                    : finishedForecast.map(JobForecast::predictedSeconds).orElse(null);
            jobs.add(new Job(job.stageId(), job.parents(), depths.get(job.stageId()), job.operator().name(),
                    finite(job.estimate().wrd()), job.inputTables().stream().map(TableRef::name).toList(), state,
                    forecast, finishedForecast.map(JobForecast::observedSeconds).orElse(null)));
        }
        return jobs;
    }

    private static List<Application> applications(QueryView q) {
        return q.stages().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> new Application(e.getKey().toString(), e.getValue(),
                        q.running().contains(e.getKey()) ? "running" : "finished"))
                .toList();
    }

    private static Work work(WorkAccount w) {
        return new Work(w.jobs(), finite(w.predictedSeconds()), finite(w.observedSeconds()), finite(w.relativeError()),
                finite(w.observedFullSpeedSeconds()), finite(w.fullSpeedError()));
    }

    /** JSON has no NaN or infinity. */
    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
