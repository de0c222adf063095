package io.percolate.sim.cluster;

import io.percolate.descriptor.QueryTags;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.sim.adapter.JobSubmission;
import io.percolate.sim.adapter.SchedulerUnderTest;
import io.percolate.sim.clock.EventQueue;
import io.percolate.sim.clock.EventQueue.Lane;
import io.percolate.sim.clock.SimClock;
import io.percolate.sim.report.JobTimeline;
import io.percolate.sim.report.QueryOutcome;
import io.percolate.sim.report.RunResult;
import io.percolate.sim.report.StartCrowding;
import io.percolate.sim.workload.SimQuery;
import io.percolate.sim.workload.Workload;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;

import io.percolate.model.TableRef;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Runs a workload on a cluster under one scheduler, in simulated time. Hive's side: a query's
 * jobs are submitted when their parents finish, independent jobs in parallel. MapReduce's
 * side: each job is an application whose ApplicationMaster takes the first container; once the
 * AM runs it asks for all its map tasks, and for its reduce tasks when the maps are done; the job
 * ends when the AM has heard of its last task's completion. YARN's side: node and AM heartbeats
 * every {@link ClusterSpec#heartbeatMillis()}, the scheduler's update every
 * {@link ClusterSpec#updateMillis()}, a completed container seen by the scheduler at the next
 * heartbeat of its node. Heartbeats stop while no job runs and resume with the next arrival.
 * What a real job pays besides its tasks' work — JVM starts, commits — is {@link StartupCosts}:
 * constants, or starts as CPU work that the JVMs starting on a node share.
 */
public final class Simulation {
    /** MapReduce's request priorities: maps before reduces (RMContainerAllocator). */
    private static final Priority MAP_PRIORITY = Priority.newInstance(20);
    private static final Priority REDUCE_PRIORITY = Priority.newInstance(10);

    private static final long MB = 1024 * 1024;

    /** A run in which no container starts for this long is stuck: an error, not an endless loop. */
    private static final long STALL_MILLIS = 6 * 3_600_000L;

    private final ClusterSpec cluster;
    private final String user;
    private final MemoryLocality locality;
    private final DataSources sources;
    private final StartupCosts costs;

    public Simulation(ClusterSpec cluster, String user) {
        this(cluster, user, MemoryLocality.OFF, DataSources.HDFS, StartupCosts.NONE);
    }

    public Simulation(ClusterSpec cluster, String user, MemoryLocality locality, DataSources sources,
            StartupCosts costs) {
        requireOneSetOfCores(cluster, costs);
        this.cluster = cluster;
        this.user = user;
        this.locality = locality;
        this.sources = sources;
        this.costs = costs;
    }

    /**
     * A node's starting JVMs and running tasks share its one set of cores: when both are CPU work,
     * they must agree on it; and nodes on one machine pool cores only if some work is CPU work.
     */
    public static void requireOneSetOfCores(ClusterSpec cluster, StartupCosts costs) {
        if (cluster.sharesCores() && costs.sharesCores() && cluster.coresPerNode() != costs.coresPerNode()) {
            throw new IllegalArgumentException("a node's starts and tasks share one set of cores: --start-cores "
                    + costs.coresPerNode() + " and --task-cores " + cluster.coresPerNode() + " differ");
        }
        if (cluster.oneMachine() && !cluster.sharesCores() && !costs.sharesCores()) {
            throw new IllegalArgumentException("nodes on one machine share cores: --one-machine needs --task-cores"
                    + " or --start-cores");
        }
    }

    /** Runs {@code workload} to completion under {@code scheduler}, which it starts and closes. */
    public RunResult run(Workload workload, SchedulerUnderTest scheduler) {
        long wallStart = System.nanoTime();
        try (scheduler) {
            Run run = new Run(workload, scheduler);
            run.execute();
            return new RunResult(scheduler.name(), run.outcomes(), run.timelines(), run.makespan,
                    (System.nanoTime() - wallStart) / 1_000_000, run.maps, run.memoryLocalMaps, run.nfsMaps,
                    run.nfsBytes, run.prefetchBytes, run.starts());
        }
    }

    /**
     * A run that cannot finish: no container started for {@link #STALL_MILLIS} of simulated time,
     * as when AMs fill a cluster without an AM limit and wait for tasks only their ends would free.
     */
    public static final class Stuck extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String state;

        Stuck(String why, String state) {
            super(why);
            this.state = state;
        }

        /** Every running job and the scheduler's view, for a log. */
        public String state() {
            return state;
        }
    }

    private enum Phase { AM_PENDING, AM_STARTING, RUNNING, DONE }

    /** One MapReduce job: one application. */
    private static final class Job {
        final QueryRun query;
        final JobNode node;
        ApplicationAttemptId attempt;
        /** submitted, or to be after Hive's gap */
        boolean due;
        Phase phase = Phase.AM_PENDING;
        int mapsToStart;
        int reducesToStart;
        int mapsLeft;
        int reducesLeft;
        boolean reducesAsked;
        Container am;
        final List<ResourceRequest> asks = new ArrayList<>();
        long submittedAt;
        long amAt;
        long finishedAt;
        /** its largest input table (memory locality), the splits its map tasks read of it, and those read */
        final Optional<TableRef> primary;
        final int primarySplits;
        final BitSet splitsRead = new BitSet();

        Job(QueryRun query, JobNode node) {
            this.query = query;
            this.node = node;
            this.primary = node.inputTables().stream().max(Comparator.comparingLong(TableRef::bytes));
            // the job's splits are of even size: the table has its share of the job's map tasks
            long splitBytes = Math.max(1, node.estimate().inputBytes() / Math.max(1, node.estimate().mapTasks()));
            this.primarySplits = (int) Math.max(1, Math.min(node.estimate().mapTasks(),
                    Math.round((double) primary.map(TableRef::bytes).orElse(0L) / splitBytes)));
            this.mapsToStart = node.estimate().mapTasks();
            this.reducesToStart = node.estimate().reduceTasks();
            this.mapsLeft = mapsToStart;
            this.reducesLeft = reducesToStart;
        }
    }

    private static final class QueryRun {
        final SimQuery query;
        final Map<String, Job> jobs = new LinkedHashMap<>();
        int jobsLeft;
        long finish = -1;
        /** containers (ApplicationMasters and tasks) of its jobs running now */
        int containers;
        /** since when it has had none, after its first; -1 before its first or while some run */
        long idleSince = -1;
        long stallMillis;

        QueryRun(SimQuery query) {
            this.query = query;
            this.jobsLeft = query.dag().jobs().size();
        }

        void containerStarted(long now) {
            if (containers == 0 && idleSince >= 0) {
                stallMillis += now - idleSince;
                idleSince = -1;
            }
            containers++;
        }

        /** Stall time is what the cluster benchmark samples: time after its first container with none running. */
        void containerEnded(long now) {
            containers--;
            if (containers == 0) {
                idleSince = now;
            }
        }
    }

    /**
     * A map task's time without the filer, and the bytes it reads from the filer (0 for none),
     * whose bandwidth it shares with the other reads in progress.
     */
    private record MapRead(double seconds, long nfsBytes) {
        static final MapRead NONE = new MapRead(0, 0);
    }

    /** A split of a table, as the XDFS cache holds it. */
    private record CachedSplit(String table, int index) {
    }

    /** A split to copy into the XDFS cache ahead of its readers. */
    private record Prefetch(CachedSplit split, long bytes) {
    }

    /** A container's end as its node will report it. */
    private record Completion(Job job, boolean map, ContainerStatus status) {
    }

    /** JVM starts of one kind, from when to when: what {@code bench simcheck} measures on the real cluster. */
    private static final class StartsSpent {
        final List<StartCrowding.Start> starts = new ArrayList<>();

        void add(long from, long to) {
            starts.add(new StartCrowding.Start(from, to));
        }

        double meanSeconds() {
            return starts.stream().mapToLong(s -> s.toMillis() - s.fromMillis()).average().orElse(0) / 1000;
        }
    }

    private final class Run {
        final Workload workload;
        final SchedulerUnderTest scheduler;
        final SimClock clock = new SimClock();
        final EventQueue events = new EventQueue(clock);
        final Resource container;
        final Map<String, QueryRun> queries = new LinkedHashMap<>();
        /** running jobs, in submission order: the order their AMs heartbeat in */
        final List<Job> running = new ArrayList<>();
        final List<Job> submitted = new ArrayList<>();
        final Map<NodeId, List<ContainerStatus>> launched = new LinkedHashMap<>();
        final Map<NodeId, List<Completion>> completed = new LinkedHashMap<>();
        /** AM containers that exited: the scheduler frees a launched container only when its node reports it */
        final Map<NodeId, List<ContainerStatus>> exited = new LinkedHashMap<>();
        final List<Job> amsLaunching = new ArrayList<>();
        final Map<NodeId, SplitLru> pageCaches = new LinkedHashMap<>();
        final SplitLru xdfsCache = new SplitLru(sources.cacheMb() * MB);
        int maps;
        int memoryLocalMaps;
        int nfsMaps;
        long nfsBytes;
        long prefetchBytes;
        /** splits on their way from the filer into the XDFS cache, ahead of the tasks */
        final Set<CachedSplit> fetching = new HashSet<>();
        /** the filer, when tables are on NFS: the reads in progress share its bandwidth */
        final ProcessorSharing filer;
        /**
         * each node's cores, when starts or tasks are CPU work: the JVMs starting and the tasks running on it share
         * them; one pool for every node when they are on one machine
         */
        final Map<NodeId, ProcessorSharing> cores = new LinkedHashMap<>();
        final StartsSpent amStarts = new StartsSpent();
        final StartsSpent taskStarts = new StartsSpent();
        List<NodeId> nodes;
        boolean ticking;
        int queriesLeft;
        long makespan;
        long lastProgress = SimClock.EPOCH_MILLIS;

        Run(Workload workload, SchedulerUnderTest scheduler) {
            this.workload = workload;
            this.scheduler = scheduler;
            this.filer = sources.onNfs() ? ProcessorSharing.bandwidth(sources.nfsMbPerSecond() * MB, events, clock) : null;
            this.container = Resource.newInstance(cluster.containerMb(), 1);
        }

        void execute() {
            nodes = scheduler.start(cluster, clock);
            if (sources.prefetches()) {
                scheduler.inputReadiness(this::cachedShare);
            }
            double nodeCores = Math.max(cluster.coresPerNode(), costs.coresPerNode());
            ProcessorSharing machine = cluster.oneMachine()
                    ? ProcessorSharing.cores(nodeCores * nodes.size(), events, clock) : null;
            nodes.forEach(n -> {
                launched.put(n, new ArrayList<>());
                completed.put(n, new ArrayList<>());
                exited.put(n, new ArrayList<>());
                pageCaches.put(n, new SplitLru(locality.pageCacheMb() * MB));
                if (nodeCores > 0) {
                    cores.put(n, machine != null ? machine : ProcessorSharing.cores(nodeCores, events, clock));
                }
            });
            queriesLeft = workload.queries().size();
            for (SimQuery q : workload.queries()) {
                events.at(SimClock.EPOCH_MILLIS + q.arrivalMillis(), Lane.ARRIVAL, () -> arrive(q));
            }
            while (queriesLeft > 0 && events.runNext()) {
                if (now() - lastProgress > STALL_MILLIS) {
                    long amsUp = running.stream().filter(j -> j.phase == Phase.RUNNING).count();
                    throw new Stuck(String.format(Locale.ROOT, "no container started for %d simulated hours,"
                            + " %d jobs running (their ApplicationMasters up), %d with theirs pending or starting,"
                            + " %d of %d queries finished",
                            STALL_MILLIS / 3_600_000, amsUp, running.size() - amsUp,
                            workload.queries().size() - queriesLeft, workload.queries().size()),
                            "running jobs: " + describe() + "; scheduler: " + scheduler.describe());
                }
            }
            if (queriesLeft > 0) {
                throw new IllegalStateException(scheduler.name() + ": " + queriesLeft + " queries never finished");
            }
        }

        String describe() {
            return running.stream().map(j -> j.attempt + " " + j.query.query.id() + "/" + j.node.stageId() + " "
                    + j.phase + " maps to start " + j.mapsToStart + " left " + j.mapsLeft + ", reduces to start "
                    + j.reducesToStart + " left " + j.reducesLeft).collect(Collectors.joining("; "));
        }

        /** Every submitted job's timeline, in submission order, relative to the run's start. */
        List<JobTimeline> timelines() {
            return submitted.stream().map(j -> new JobTimeline(j.query.query.id(), j.node.stageId(),
                    j.submittedAt - SimClock.EPOCH_MILLIS, j.amAt - SimClock.EPOCH_MILLIS,
                    j.finishedAt - SimClock.EPOCH_MILLIS)).toList();
        }

        RunResult.Starts starts() {
            List<StartCrowding.Start> all = new ArrayList<>(amStarts.starts);
            all.addAll(taskStarts.starts);
            return new RunResult.Starts(amStarts.meanSeconds(), taskStarts.meanSeconds(),
                    StartCrowding.meanInFlight(amStarts.starts, all), StartCrowding.meanInFlight(taskStarts.starts, all));
        }

        List<QueryOutcome> outcomes() {
            return queries.values().stream().map(r -> new QueryOutcome(r.query.id(), r.query.bin(),
                    r.query.arrivalMillis(), r.finish, r.stallMillis)).toList();
        }

        long now() {
            return clock.getTime();
        }

        void arrive(SimQuery q) {
            lastProgress = now();
            QueryRun run = new QueryRun(q);
            queries.put(q.id(), run);
            for (JobNode node : q.dag().jobs()) {
                run.jobs.put(node.stageId(), new Job(run, node));
            }
            if (q.tagged()) {
                QueryDag told = scheduler.perfectKnowledge() ? q.dag() : q.published();
                scheduler.announce(QueryDescriptor.of(q.id(), user, q.shape(), now(), told));
            }
            for (Job job : run.jobs.values()) {
                if (job.node.parents().isEmpty()) {
                    submitAfterGap(job);
                }
            }
        }

        /**
         * Submits the job after Hive's gap (at once without one, or for a single-job application),
         * marking it due so that it is submitted once.
         */
        void submitAfterGap(Job job) {
            job.due = true;
            after(job.query.query.tagged() ? costs.jobGapMillis() : 0, () -> {
                submit(job);
                startTicking();
            });
        }

        void submit(Job job) {
            // a non-Hive application carries no query tags: the scheduler sees a single-job query
            Set<String> tags = !job.query.query.tagged() ? Set.of()
                    : QueryTags.of(job.query.query.id(), job.node.stageId()).stream()
                            .map(t -> t.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
            job.attempt = scheduler.submit(new JobSubmission(job.query.query.id() + ":" + job.node.stageId(), user, tags));
            job.submittedAt = now();
            running.add(job);
            submitted.add(job);
        }

        /** Updates and heartbeats on a fixed grid, from the next grid point on, while jobs run. */
        void startTicking() {
            if (ticking) {
                return;
            }
            ticking = true;
            long interval = cluster.updateMillis();
            long sinceEpoch = now() - SimClock.EPOCH_MILLIS;
            events.at(SimClock.EPOCH_MILLIS + (sinceEpoch + interval - 1) / interval * interval, Lane.UPDATE, this::tick);
        }

        /** Whether anything is left for a heartbeat to do. */
        boolean busy() {
            return !running.isEmpty() || completed.values().stream().anyMatch(l -> !l.isEmpty())
                    || exited.values().stream().anyMatch(l -> !l.isEmpty());
        }

        /** The scheduler's update; on heartbeat grid points, node heartbeats and then AM heartbeats follow. */
        void tick() {
            scheduler.update();
            if ((now() - SimClock.EPOCH_MILLIS) % cluster.heartbeatMillis() == 0) {
                events.at(now(), Lane.NODE_HEARTBEAT, this::nodeHeartbeats);
                events.at(now(), Lane.AM_HEARTBEAT, this::amHeartbeats);
                prefetch();
            }
            if (busy()) {
                events.at(now() + cluster.updateMillis(), Lane.UPDATE, this::tick);
            } else {
                ticking = false;
            }
        }

        void nodeHeartbeats() {
            List<Completion> reported = new ArrayList<>();
            for (NodeId node : nodes) {
                List<ContainerStatus> done = new ArrayList<>(exited.get(node));
                completed.get(node).forEach(c -> done.add(c.status()));
                scheduler.heartbeat(node, launched.get(node), done);
                reported.addAll(completed.get(node));
                launched.get(node).clear();
                completed.get(node).clear();
                exited.get(node).clear();
            }
            // the AMs whose launch was just reported ask for their maps once they have started
            for (Job job : amsLaunching) {
                long launched = now();
                startUp(job.am.getNodeId(), costs.amStartMillis(), () -> {
                    amStarts.add(launched, now());
                    askForMaps(job);
                });
            }
            amsLaunching.clear();
            for (Completion c : reported) {
                taskReported(c);
            }
        }

        /** Runs {@code action} now, or {@code millis} from now before that instant's heartbeats (as a task's end). */
        void after(long millis, Runnable action) {
            if (millis == 0) {
                action.run();
            } else {
                events.at(now() + millis, Lane.TASK_END, action);
            }
        }

        /** Runs {@code started} once a JVM on {@code node} has started: after its constant cost, or its CPU work there. */
        void startUp(NodeId node, long cost, Runnable started) {
            if (costs.sharesCores() && cost > 0) {
                cores.get(node).serve(cost, started);
            } else {
                after(cost, started);
            }
        }

        void askForMaps(Job job) {
            job.phase = Phase.RUNNING;
            job.asks.add(ResourceRequest.newInstance(MAP_PRIORITY, ResourceRequest.ANY, container, job.mapsToStart));
        }

        void amHeartbeats() {
            for (Job job : List.copyOf(running)) {
                List<ResourceRequest> asks = new ArrayList<>(job.asks);
                job.asks.clear();
                for (Container c : scheduler.allocate(job.attempt, asks)) {
                    start(job, c);
                }
            }
        }

        void start(Job job, Container c) {
            lastProgress = now();
            NodeId node = c.getNodeId();
            launched.get(node).add(ContainerStatus.newInstance(c.getId(), ContainerState.RUNNING, "", 0));
            job.query.containerStarted(now());
            if (job.phase == Phase.AM_PENDING) {
                job.am = c;
                job.amAt = now();
                job.phase = Phase.AM_STARTING;
                amsLaunching.add(job);
                return;
            }
            boolean map = job.mapsToStart > 0;
            if (map) {
                job.mapsToStart--;
            } else if (job.reducesToStart > 0 && job.reducesAsked) {
                job.reducesToStart--;
            } else {
                throw new IllegalStateException(scheduler.name() + " gave " + job.attempt + " a container it did not ask for");
            }
            // the split is the AM's choice when it gets the container; the task reads it once started
            MapRead read = map ? mapRead(job, node) : MapRead.NONE;
            double seconds = map ? read.seconds() : job.node.estimate().reduceTaskSeconds();
            Runnable ended = () -> {
                job.query.containerEnded(now());
                completed.get(node).add(new Completion(job, map,
                        ContainerStatus.newInstance(c.getId(), ContainerState.COMPLETE, "", ContainerExitStatus.SUCCESS)));
            };
            if (!costs.sharesCores() && !cluster.sharesCores()) {
                taskStarts.add(now(), now() + costs.taskStartMillis());
                work(node, read, Math.round(seconds * 1000) + costs.taskStartMillis(), ended);
                return;
            }
            long launched = now();
            startUp(node, costs.taskStartMillis(), () -> {
                taskStarts.add(launched, now());
                work(node, read, Math.round(seconds * 1000), ended);
            });
        }

        /**
         * A task's work on {@code node} from now: {@code millis} of compute, and its read from the
         * filer if any; {@code ended} when both are done (stage time = max(compute, read)). The
         * compute takes its time at full speed, or, when tasks share their node's cores, is that much
         * CPU work at one core, done at the share of the cores the node's tasks leave it.
         */
        void work(NodeId node, MapRead read, long millis, Runnable ended) {
            if (cluster.sharesCores()) {
                Runnable last = read.nfsBytes() > 0 ? bothDone(ended) : ended;
                cores.get(node).serve(Math.max(1, millis), last);
                if (read.nfsBytes() > 0) {
                    filer.serve(read.nfsBytes(), last);
                }
                return;
            }
            long end = now() + Math.max(1, millis);
            if (read.nfsBytes() > 0) {
                filer.serve(read.nfsBytes(), () -> events.at(Math.max(now(), end), Lane.TASK_END, ended));
            } else {
                events.at(end, Lane.TASK_END, ended);
            }
        }

        /** Runs {@code action} on the second of two calls: when both halves of a task are done. */
        Runnable bothDone(Runnable action) {
            int[] calls = {0};
            return () -> {
                if (++calls[0] == 2) {
                    action.run();
                }
            };
        }

        /**
         * A map task's time and source. Its estimate is its compute time, divided by the
         * memory-locality speed-up when the split of its job's largest input table it reads is in
         * the node's page cache. Like the ApplicationMaster matching a container to a node-local
         * split, the task takes a split of that table cached on its node if its job has one left,
         * else the next one; tasks beyond the table's splits read the job's other inputs, which are
         * not modelled. With tables on NFS ({@link DataSources}), a split not in the page cache is
         * read from the XDFS cache or the filer, and the task takes max(compute, read): a read from
         * the XDFS cache at the local speed, a read from the filer at its share of the filer's
         * bandwidth while it lasts ({@link ProcessorSharing}).
         */
        MapRead mapRead(Job job, NodeId node) {
            double compute = job.node.estimate().mapTaskSeconds();
            maps++;
            if ((!locality.enabled() && !sources.onNfs()) || job.primary.isEmpty()) {
                return new MapRead(compute, 0);
            }
            String table = job.primary.get().name();
            SplitLru pageCache = pageCaches.get(node);
            int split = -1;
            if (locality.enabled()) {
                for (int i = job.splitsRead.nextClearBit(0); i < job.primarySplits; i = job.splitsRead.nextClearBit(i + 1)) {
                    if (pageCache.holds(table, i)) {
                        split = i;
                        break;
                    }
                }
            }
            boolean memoryLocal = split >= 0;
            if (!memoryLocal) {
                split = sources.prefetches() ? nextSplitByXdfsLocation(job, table) : job.splitsRead.nextClearBit(0);
                if (split >= job.primarySplits) {
                    return new MapRead(compute, 0);
                }
            }
            job.splitsRead.set(split);
            long bytes = job.primary.get().bytes() / job.primarySplits;
            if (locality.enabled()) {
                pageCache.read(table, split, bytes);
            }
            if (memoryLocal) {
                memoryLocalMaps++;
                return new MapRead(compute / locality.speedup(), 0);
            }
            if (!sources.onNfs()) {
                return new MapRead(compute, 0);
            }
            if (xdfsCache.holds(table, split)) {
                xdfsCache.read(table, split, bytes);
                return new MapRead(Math.max(compute, bytes / (sources.localMbPerSecond() * MB)), 0);
            }
            xdfsCache.read(table, split, bytes);
            nfsMaps++;
            nfsBytes += bytes;
            return new MapRead(compute, bytes);
        }

        /**
         * The split a task of {@code job} takes when XDFS prefetches: as the ApplicationMaster
         * matches containers to block locations, a cached split first, then one not on its way
         * into the cache (whose block is located on its target, not here), then any left.
         */
        int nextSplitByXdfsLocation(Job job, String table) {
            int fallback = -1;
            int uncached = -1;
            for (int i = job.splitsRead.nextClearBit(0); i < job.primarySplits; i = job.splitsRead.nextClearBit(i + 1)) {
                if (xdfsCache.holds(table, i)) {
                    return i;
                }
                if (uncached < 0 && !fetching.contains(new CachedSplit(table, i))) {
                    uncached = i;
                }
                if (fallback < 0) {
                    fallback = i;
                }
            }
            return uncached >= 0 ? uncached : fallback >= 0 ? fallback : job.primarySplits;
        }

        /**
         * XDFS's data-transfer scheduler: keeps {@link DataSources#prefetchStreams} splits on their
         * way from the filer into the cache, in the filer's spare bandwidth (background reads: an
         * administrator's cap set to what the tasks leave), for jobs in the order the compute
         * scheduler will run them — with a query order (TLS), every unfinished
         * job of each query, submitted or not (the descriptor shows them), running ones first, then
         * the deepest (LoDFA); without one (MixApart), the submitted jobs by arrival. Only splits no
         * task is about to read are worth copying: those of jobs not yet submitted, and of running
         * jobs whose ApplicationMaster runs and whose maps wait for containers; within a job, the
         * last unread split first, as tasks take the first ones. A task that takes a split still on
         * its way reads it from the filer too, as xdfs's reader does.
         */
        void prefetch() {
            if (!sources.prefetches()) {
                return;
            }
            while (fetching.size() < sources.prefetchStreams()) {
                Optional<Prefetch> next = nextPrefetch();
                if (next.isEmpty()) {
                    return;
                }
                Prefetch p = next.get();
                fetching.add(p.split());
                filer.serveInBackground(p.bytes(), () -> {
                    fetching.remove(p.split());
                    xdfsCache.read(p.split().table(), p.split().index(), p.bytes());
                    prefetchBytes += p.bytes();
                    prefetch();
                });
            }
        }

        Optional<Prefetch> nextPrefetch() {
            for (Job job : transferOrder()) {
                boolean waiting = job.attempt == null || job.phase == Phase.RUNNING && job.mapsToStart > 0;
                if (job.primary.isEmpty() || !waiting) {
                    continue;
                }
                String table = job.primary.get().name();
                long bytes = job.primary.get().bytes() / job.primarySplits;
                for (int i = job.splitsRead.previousClearBit(job.primarySplits - 1); i >= 0;
                        i = job.splitsRead.previousClearBit(i - 1)) {
                    CachedSplit split = new CachedSplit(table, i);
                    if (!xdfsCache.holds(table, i) && !fetching.contains(split)) {
                        return Optional.of(new Prefetch(split, bytes));
                    }
                }
            }
            return Optional.empty();
        }

        /**
         * What XDFS tells the scheduler of a job's input (MixApart's Algorithm 1): the share of its
         * largest table's splits in the cache; empty for a job reading none.
         */
        OptionalDouble cachedShare(String queryId, String stage) {
            QueryRun query = queries.get(queryId);
            Job job = query == null ? null : query.jobs.values().stream()
                    .filter(j -> j.node.stageId().equalsIgnoreCase(stage)).findFirst().orElse(null);
            if (job == null || job.primary.isEmpty()) {
                return OptionalDouble.empty();
            }
            String table = job.primary.get().name();
            long cached = IntStream.range(0, job.primarySplits).filter(i -> xdfsCache.holds(table, i)).count();
            return OptionalDouble.of((double) cached / job.primarySplits);
        }

        List<Job> transferOrder() {
            List<Job> order = new ArrayList<>();
            for (String id : scheduler.queryOrder()) {
                QueryRun query = queries.get(id);
                if (query == null || query.jobsLeft == 0) {
                    continue;
                }
                Map<String, Integer> depths = query.query.dag().depths();
                query.jobs.values().stream().filter(j -> j.phase != Phase.DONE)
                        .sorted(Comparator.<Job>comparingInt(j -> j.attempt != null ? 0 : 1)
                                .thenComparing(Comparator.<Job>comparingInt(j -> depths.getOrDefault(j.node.stageId(), 0))
                                        .reversed()))
                        .forEach(order::add);
            }
            running.stream().filter(j -> !order.contains(j)).forEach(order::add);
            return order;
        }

        void taskReported(Completion c) {
            Job job = c.job;
            if (c.map) {
                job.mapsLeft--;
            } else {
                job.reducesLeft--;
            }
            if (job.mapsLeft == 0 && job.reducesLeft > 0 && !job.reducesAsked) {
                job.reducesAsked = true;
                job.asks.add(ResourceRequest.newInstance(REDUCE_PRIORITY, ResourceRequest.ANY, container,
                        job.reducesToStart));
            }
            if (job.mapsLeft == 0 && job.reducesLeft == 0) {
                after(costs.jobEndMillis(), () -> finish(job));
            }
        }

        /** The AM has exited: YARN removes its attempt, and the AM's node reports its container at its next heartbeat. */
        void releaseAm(Job job) {
            scheduler.finish(job.attempt);
            exited.get(job.am.getNodeId()).add(ContainerStatus.newInstance(job.am.getId(), ContainerState.COMPLETE, "",
                    ContainerExitStatus.SUCCESS));
        }

        void finish(Job job) {
            job.phase = Phase.DONE;
            job.finishedAt = now();
            after(costs.amExitMillis(), () -> {
                releaseAm(job);
                startTicking();
            });
            job.query.containerEnded(now());
            running.remove(job);
            QueryRun query = job.query;
            query.jobsLeft--;
            if (query.jobsLeft == 0) {
                query.finish = now() - SimClock.EPOCH_MILLIS;
                makespan = Math.max(makespan, query.finish);
                queriesLeft--;
                return;
            }
            for (Job child : query.jobs.values()) {
                if (!child.due && child.node.parents().stream().allMatch(p -> query.jobs.get(p).phase == Phase.DONE)) {
                    submitAfterGap(child);
                }
            }
        }
    }
}
