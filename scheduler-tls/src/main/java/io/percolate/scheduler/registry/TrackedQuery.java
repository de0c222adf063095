package io.percolate.scheduler.registry;

import io.percolate.model.JobNode;
import io.percolate.model.QueryDescriptor;
import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/** The registry's mutable record of one query; confined to the scheduler's lock. */
final class TrackedQuery {
    final String key;
    final String user;
    final long firstSeenMillis;
    private final boolean singleApplication;
    private final Map<ApplicationId, String> stageOfApp = new LinkedHashMap<>();
    private final Map<ApplicationId, Long> arrivalOfApp = new LinkedHashMap<>();
    private final Set<ApplicationId> running = new LinkedHashSet<>();
    /** stages as the finished applications' tags named them; mapped onto the DAG when it is known */
    private final Set<String> finishedTags = new LinkedHashSet<>();
    private DescriptorStatus status;
    private String problem = "";
    private QueryDescriptor descriptor;
    /** DAG job by lower-cased stage id (alternatives included), with its depth: ranks are read inside every sort */
    private Map<String, JobFacts> jobs = Map.of();
    private double queryWrd;

    private record JobFacts(JobNode job, int depth) {
    }
    private long idleSinceMillis;

    private TrackedQuery(String key, String user, DescriptorStatus status, boolean singleApplication, long now) {
        this.key = key;
        this.user = user;
        this.status = status;
        this.singleApplication = singleApplication;
        this.firstSeenMillis = now;
        this.idleSinceMillis = now;
    }

    /** A query named by tags, whose descriptor is yet to be read. */
    static TrackedQuery tagged(String queryId, String user, long now) {
        return new TrackedQuery(queryId, user, DescriptorStatus.LOADING, false, now);
    }

    /** One application scheduled as a query of its own. */
    static TrackedQuery alone(ApplicationId app, String user, DescriptorStatus status, String problem, long now) {
        TrackedQuery q = new TrackedQuery(app.toString(), user, status, true, now);
        q.problem = problem;
        return q;
    }

    /** @param arrival the registry's sequence number for this application */
    void add(ApplicationId app, String stage, long arrival) {
        stageOfApp.put(app, stage);
        arrivalOfApp.put(app, arrival);
        running.add(app);
    }

    void remove(ApplicationId app, long now) {
        if (running.remove(app)) {
            finishedTags.add(stageOfApp.get(app));
            if (running.isEmpty()) {
                idleSinceMillis = now;
            }
        }
    }

    void honour(QueryDescriptor d) {
        descriptor = d;
        Map<String, Integer> depths = d.dag().depths();
        Map<String, JobFacts> byStage = new HashMap<>();
        for (JobNode job : d.dag().jobs()) {
            JobFacts facts = new JobFacts(job, depths.get(job.stageId()));
            byStage.put(job.stageId().toLowerCase(Locale.ROOT), facts);
            job.alternatives().forEach(a -> byStage.putIfAbsent(a.toLowerCase(Locale.ROOT), facts));
        }
        jobs = byStage;
        queryWrd = d.dag().totalWrd();
        status = DescriptorStatus.LOADED;
        problem = "";
    }

    void refuse(DescriptorStatus why, String problem) {
        status = why;
        this.problem = problem;
    }

    DescriptorStatus status() {
        return status;
    }


    /**
     * The rank of one of this query's applications: by the DAG when the descriptor is honoured,
     * else as a single-job query of its own demand.
     */
    AppRank rank(ApplicationId app, long demandedContainers, double defaultTaskSeconds) {
        if (!status.honoured()) {
            return AppRank.alone(arrivalOfApp.get(app), demandedContainers, defaultTaskSeconds);
        }
        JobFacts facts = jobs.get(stageOfApp.get(app));
        int depth = facts == null ? 1 : facts.depth();
        double jobWrd = facts == null ? 0 : facts.job().estimate().wrd();
        long queryArrival = arrivalOfApp.values().iterator().next();
        return new AppRank(queryWrd, queryArrival, depth, jobWrd);
    }

    /**
     * Whether the query can leave the active set: nothing runs and either it was a single
     * application, all its DAG's jobs finished, or it stayed idle for {@code idleMillis}.
     */
    boolean retirable(long now, long idleMillis) {
        if (!running.isEmpty()) {
            return false;
        }
        boolean allJobsDone = status.honoured() && finishedStages().size() == descriptor.dag().jobs().size();
        return singleApplication || allJobsDone || now - idleSinceMillis >= idleMillis;
    }

    /** Finished stages, named by the DAG's job ids once the descriptor is known. */
    private List<String> finishedStages() {
        if (descriptor == null) {
            return List.copyOf(finishedTags);
        }
        return finishedTags.stream().map(this::jobOf).flatMap(Optional::stream).map(JobNode::stageId)
                .distinct().toList();
    }

    QueryView view(OptionalLong retiredAt) {
        return new QueryView(key, user, status, problem, Optional.ofNullable(descriptor), stageOfApp, running,
                finishedStages(), firstSeenMillis, retiredAt);
    }

    private Optional<JobNode> jobOf(String stage) {
        JobFacts facts = stage == null ? null : jobs.get(stage.toLowerCase(Locale.ROOT));
        return facts == null ? Optional.empty() : Optional.of(facts.job());
    }
}
