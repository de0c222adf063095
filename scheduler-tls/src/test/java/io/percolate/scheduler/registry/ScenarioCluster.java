package io.percolate.scheduler.registry;

import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.scheduler.qef.Qef;
import io.percolate.scheduler.qef.SystemLoad;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.percolate.scheduler.registry.Descriptors.stored;
import static io.percolate.scheduler.registry.Descriptors.tags;

/**
 * A one-second-step cluster of identical containers that drives a {@link QueryRegistry} the way
 * TlsScheduler does: jobs are submitted as applications when their parents finish (as Hive
 * does), each finished container is reported, QEF re-places the queries every step, and every
 * free container goes to the first application with a pending task in {@link AppRank#compare}
 * order. A job runs its map tasks, then its reduce tasks. Small enough to check by hand; the
 * full simulator of the real schedulers is a separate tool.
 */
final class ScenarioCluster {
    private static final long CLUSTER = 1_700_000_000_000L;
    private static final NodeId NODE = NodeId.newInstance("node", 1);

    /**
     * @param actual  the tasks the query's jobs really run
     * @param claimed the DAG its descriptor publishes (normally the same)
     */
    record Query(String id, long arrivalSecond, QueryDag actual, QueryDag claimed) {
        Query(String id, long arrivalSecond, QueryDag dag) {
            this(id, arrivalSecond, dag, dag);
        }
    }

    /** Per query: arrival and finish second. */
    record Outcome(Map<String, Long> arrival, Map<String, Long> finish) {
        long response(String query) {
            return finish.get(query) - arrival.get(query);
        }
    }

    private final int containers;
    private final Qef.Settings qef;
    private final double maxLoad;

    ScenarioCluster(int containers, Qef.Settings qef, double maxLoad) {
        this.containers = containers;
        this.qef = qef;
        this.maxLoad = maxLoad;
    }

    /** A running job: one application. */
    private static final class Job {
        final String query;
        final JobNode node;
        final ApplicationId app;
        int mapsLeft;
        int reducesLeft;
        int running;

        Job(String query, JobNode node, ApplicationId app) {
            this.query = query;
            this.node = node;
            this.app = app;
            this.mapsLeft = node.estimate().mapTasks();
            this.reducesLeft = node.estimate().reduceTasks();
        }

        /** Tasks that could start now: reduces wait for every map. */
        int startable() {
            if (mapsLeft > 0) {
                return mapsLeft;
            }
            return running == 0 || node.estimate().mapTasks() == 0 ? reducesLeft : 0;
        }

        int startTask() {
            JobEstimate e = node.estimate();
            running++;
            if (mapsLeft > 0) {
                mapsLeft--;
                return (int) Math.ceil(e.mapTaskSeconds());
            }
            reducesLeft--;
            return (int) Math.ceil(e.reduceTaskSeconds());
        }

        boolean done() {
            return mapsLeft == 0 && reducesLeft == 0 && running == 0;
        }
    }

    private record Task(Job job, long start, long end) {
    }

    Outcome run(List<Query> queries) throws InterruptedException {
        ManualClock clock = new ManualClock(0);
        FakeSource source = new FakeSource();
        queries.forEach(q -> source.serve(stored(q.id(), "alice", "alice", q.claimed())));
        DescriptorLoader loader = new DescriptorLoader(source, 1, Duration.ZERO, 1);
        try {
            QueryRegistry registry = new QueryRegistry(loader, clock,
                    new QueryRegistry.Settings(600_000, 1000, 30, 0, true, true, 0), new Qef(qef),
                    new SystemLoad(300_000, maxLoad));
            return simulate(queries, registry, clock);
        } finally {
            loader.close();
        }
    }

    private Outcome simulate(List<Query> queries, QueryRegistry registry, ManualClock clock) throws InterruptedException {
        Map<String, Long> arrival = new LinkedHashMap<>();
        Map<String, Long> finish = new LinkedHashMap<>();
        Map<String, List<String>> finishedStages = new HashMap<>();
        Map<String, List<String>> submittedStages = new HashMap<>();
        Map<ApplicationId, Job> jobs = new LinkedHashMap<>();
        List<Task> tasks = new ArrayList<>();
        int nextApp = 1;
        for (long t = 0; finish.size() < queries.size(); t++) {
            clock.set(t * 1000);
            for (Task task : List.copyOf(tasks)) {
                if (task.end() == t) {
                    tasks.remove(task);
                    task.job().running--;
                    registry.containerFinished(task.job().app, NODE, task.end() - task.start());
                    if (task.job().done()) {
                        jobs.remove(task.job().app);
                        registry.applicationRemoved(task.job().app);
                        finishedStages.get(task.job().query).add(task.job().node.stageId());
                    }
                }
            }
            for (Query q : queries) {
                if (q.arrivalSecond() == t) {
                    arrival.put(q.id(), t);
                    finishedStages.put(q.id(), new ArrayList<>());
                    submittedStages.put(q.id(), new ArrayList<>());
                }
                if (!arrival.containsKey(q.id()) || finish.containsKey(q.id())) {
                    continue;
                }
                List<String> done = finishedStages.get(q.id());
                if (done.size() == q.actual().jobs().size()) {
                    finish.put(q.id(), t);
                    continue;
                }
                for (JobNode node : q.actual().jobs()) {
                    if (!submittedStages.get(q.id()).contains(node.stageId()) && done.containsAll(node.parents())) {
                        ApplicationId app = ApplicationId.newInstance(CLUSTER, nextApp++);
                        submittedStages.get(q.id()).add(node.stageId());
                        jobs.put(app, new Job(q.id(), node, app));
                        registry.applicationAdded(app, "alice", tags(q.id(), node.stageId()));
                    }
                }
            }
            awaitDescriptors(registry);
            registry.reorder(containers, 0, app -> {
                Job job = jobs.get(app);
                return job == null ? AppDemand.NONE : new AppDemand(job.startable(), job.running);
            });
            for (int free = containers - tasks.size(); free > 0; free--) {
                Job best = null;
                for (Job job : jobs.values()) {
                    if (job.startable() > 0 && (best == null
                            || AppRank.compare(registry.rank(job.app), registry.rank(best.app), null) < 0)) {
                        best = job;
                    }
                }
                if (best == null) {
                    break;
                }
                tasks.add(new Task(best, t, t + Math.max(1, best.startTask())));
            }
            if (t > 1_000_000) {
                throw new IllegalStateException("scenario did not finish: " + finish.keySet());
            }
        }
        return new Outcome(arrival, finish);
    }

    /** Descriptors load on the loader thread; the scenario waits so every run is deterministic. */
    private static void awaitDescriptors(QueryRegistry registry) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            registry.refresh();
            if (registry.activeQueries().stream().noneMatch(q -> q.status() == DescriptorStatus.LOADING)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("descriptors still loading");
            }
            Thread.sleep(1);
        }
    }
}
