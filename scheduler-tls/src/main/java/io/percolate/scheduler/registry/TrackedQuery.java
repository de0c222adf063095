package io.percolate.scheduler.registry;

import io.percolate.descriptor.QueryTags;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.model.QueryDescriptor;
import io.percolate.model.TableRef;
import io.percolate.scheduler.lodfa.NodeHistory;
import io.percolate.scheduler.qef.Placement;
import io.percolate.scheduler.qef.QueryState;
import io.percolate.scheduler.qef.ServiceTime;
import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The registry's mutable record of one query; confined to the scheduler's lock. */
final class TrackedQuery {
    /**
     * Bounds on how far observed task times may rescale the estimates of jobs that have not
     * started: wide enough to correct a default estimate, finite so one odd job cannot make a
     * query look free or endless.
     */
    static final double MIN_CORRECTION = 1 / 20.0;
    static final double MAX_CORRECTION = 20;

    final String key;
    final String user;
    final long firstSeenMillis;
    private final boolean singleApplication;
    private final boolean dfa;
    private final Map<ApplicationId, String> stageOfApp = new LinkedHashMap<>();
    private final Map<ApplicationId, Long> arrivalOfApp = new LinkedHashMap<>();
    /** when each running application could start (see {@link #add}) */
    private final Map<ApplicationId, Long> readyOfApp = new HashMap<>();
    /** running applications that have not launched a task yet */
    private final Set<ApplicationId> awaitingFirstTask = new HashSet<>();
    /** of those, the ones that asked for tasks: when, and the cluster's task launches then */
    private final Map<ApplicationId, Mark> firstAsk = new HashMap<>();
    /** when each running application arrived, and the cluster's task launches then */
    private final Map<ApplicationId, Mark> arrivedOfApp = new HashMap<>();
    /** how long each running application's first ApplicationMaster queued behind other jobs' tasks, ms (0: not) */
    private final Map<ApplicationId, Long> amQueuedMillis = new HashMap<>();
    /** each running application's forecast ({@link #forecast}) */
    private final Map<ApplicationId, Forecast> forecastOfApp = new HashMap<>();
    /** finished jobs' forecasts against what they took */
    private final List<JobForecast> forecasts = new ArrayList<>();
    private final Set<ApplicationId> running = new LinkedHashSet<>();
    /** finished containers of each application that is still running */
    private final Map<ApplicationId, TaskTally> tallies = new HashMap<>();
    /** stages as the finished applications' tags named them; mapped onto the DAG when it is known */
    private final Set<String> finishedTags = new LinkedHashSet<>();
    /** containers of finished applications, by the stage their tag named */
    private final Map<String, TaskTally> finishedByStage = new HashMap<>();
    private DescriptorStatus status;
    private String problem = "";
    private QueryDescriptor descriptor;
    /** DAG job by lower-cased stage id (alternatives included): ranks are read inside every sort */
    private Map<String, JobFacts> jobs = Map.of();
    /** The honoured DAG's jobs, parents first: sorted once, weighed at every update. */
    private List<JobNode> parentsFirst = List.of();
    private double observedFinished;
    /** the same, less the slowdown of the load each job ran under ({@link TaskContention}) */
    private double observedFinishedFullSpeed;
    /** container-seconds of every finished task container of the query */
    private double observedWork;
    private double predictedFinished;
    /** newer descriptors taken after the first */
    private int revisions;
    private long idleSinceMillis;
    /** when the query's last job ended; -1 before its first */
    private long lastJobEndMillis = -1;
    /** the end of the query's last finished job, seconds, to be learned as its end on the path if a next job comes (NaN: none) */
    private double endIfFollowed = Double.NaN;
    private int position = AppRank.UNPLACED;
    private Optional<Placement> placement = Optional.empty();
    private final Map<ApplicationId, AppRank> ranks = new HashMap<>();

    /** A moment in an application's start, {@code launches} into the cluster's task launches. */
    private record Mark(long atMillis, long launches) {
    }

    private record JobFacts(JobNode job, int depth, Optional<String> largestInput, Set<String> inputs) {
    }

    /** A job's forecast time, seconds, the part of it from first task to last, and what it rests on. */
    private record Forecast(double seconds, double taskSeconds, JobEstimate estimate, double correction,
                            double parallelism) {
    }

    /** Containers an application has finished and the seconds they ran. */
    private static final class TaskTally {
        long completed;
        double seconds;
        /** of a finished application, {@link #seconds} without the load they ran under, by the K learned then */
        double secondsAtFullSpeed;
        /** when the first task container was launched (-1: none yet) and when the last finished ended */
        long firstLaunchMillis = -1;
        long lastEndMillis;
        /**
         * task containers launched and not yet finished; a container killed while running is never
         * reported finished, so this can stay above 0 and hide a later idle gap, never invent one
         */
        int running;
        /** seconds after a task ended with none running, until the next launched */
        double idleSeconds;
        /** task-seconds its containers ran, and the same weighted by the cluster's running tasks */
        double busySeconds;
        double loadedSeconds;
        /** when {@link #accrue} last ran, and the cluster's {@link TaskLoad} integral then */
        long accruedMillis;
        double accruedLoad;

        TaskTally() {
        }

        TaskTally(long now, double loadIntegral) {
            accruedMillis = now;
            accruedLoad = loadIntegral;
        }

        /** Counts the time since the last call, over which {@link #running} did not change. */
        void accrue(long now, double loadIntegral) {
            busySeconds += running * Math.max(0, now - accruedMillis) / 1000.0;
            loadedSeconds += running * Math.max(0, loadIntegral - accruedLoad);
            accruedMillis = now;
            accruedLoad = loadIntegral;
        }

        /** The mean number of tasks running on the cluster while these ran (NaN: not seen running). */
        double load() {
            return busySeconds > 0 ? loadedSeconds / busySeconds : Double.NaN;
        }

        /** The seconds these tasks would have taken at full speed, without the load they ran under. */
        double fullSpeedSeconds(LearnedJobCosts.JobCosts costs) {
            return seconds / costs.slowdown(load());
        }

        void add(TaskTally other) {
            completed += other.completed;
            seconds += other.seconds;
            secondsAtFullSpeed += other.secondsAtFullSpeed;
            lastEndMillis = Math.max(lastEndMillis, other.lastEndMillis);
        }
    }

    /**
     * Work of one job (or of one application when the DAG is unknown), container-seconds.
     *
     * @param started whether the job was submitted (or finished): a job still to come will also
     *                pay its start-up (ApplicationMaster launch) before its tasks run
     * @param reduceWork   of a job still to come, the part of its work in reduces, which run after
     *                     its maps; 0 where the phases are not known apart
     * @param reduceTasks  the reduces among its tasks
     * @param phaseSeconds of a job that has launched no task yet, its map and reduce phases alone
     *                     on the cluster as its forecast has them ({@link TrackedQuery#phases}); NaN
     *                     once its tasks' own times are known
     */
    private record Work(double remaining, double remainingTasks, double total, double totalTasks, boolean started,
                        double reduceWork, double reduceTasks, double phaseSeconds) {

        Work(double remaining, double remainingTasks, double total, double totalTasks, boolean started) {
            this(remaining, remainingTasks, total, totalTasks, started, 0, 0, Double.NaN);
        }

        /** A job that started and has nothing left: no start-up or end to pay. */
        boolean finished() {
            return started && remaining == 0 && remainingTasks == 0;
        }

        /** Seconds alone for {@code work} of {@code tasks}, the reduces (if known) after the maps. */
        double seconds(double work, double tasks, double capacity) {
            if (!Double.isNaN(phaseSeconds)) {
                return phaseSeconds;
            }
            return ServiceTime.phased(work - reduceWork, tasks - reduceTasks, reduceWork, reduceTasks, capacity);
        }
    }

    private TrackedQuery(String key, String user, DescriptorStatus status, boolean singleApplication,
                         boolean dfa, long now) {
        this.key = key;
        this.user = user;
        this.status = status;
        this.singleApplication = singleApplication;
        this.dfa = dfa;
        this.firstSeenMillis = now;
        this.idleSinceMillis = now;
    }

    /**
     * A query named by tags, whose descriptor is yet to be read.
     *
     * @param dfa false: the query's jobs are served in arrival order, without LoDFA
     */
    static TrackedQuery tagged(String queryId, String user, boolean dfa, long now) {
        return new TrackedQuery(queryId, user, DescriptorStatus.LOADING, false, dfa, now);
    }

    /** One application scheduled as a query of its own. */
    static TrackedQuery alone(ApplicationId app, String user, DescriptorStatus status, String problem, long now) {
        TrackedQuery q = new TrackedQuery(app.toString(), user, status, true, false, now);
        q.problem = problem;
        return q;
    }

    /**
     * An application of the query arrived {@code now}; it could start now, or, when none of the
     * query's jobs runs, since the last one finished (Hive's hand-off belongs to the job).
     *
     * @param arrival      the registry's sequence number for this application
     * @param loadIntegral the cluster's {@link TaskLoad} integral now
     * @param launches     the cluster's task launches so far
     * @param costs        learns the end on the path of a job this one follows
     */
    void add(ApplicationId app, String stage, long arrival, long now, double loadIntegral, long launches,
             LearnedJobCosts costs) {
        if (!Double.isNaN(endIfFollowed)) {
            costs.endedOnPath(endIfFollowed);
            endIfFollowed = Double.NaN;
        }
        readyOfApp.put(app, running.isEmpty() ? idleSinceMillis : now);
        awaitingFirstTask.add(app);
        arrivedOfApp.put(app, new Mark(now, launches));
        stageOfApp.put(app, stage);
        arrivalOfApp.put(app, arrival);
        running.add(app);
        tallies.put(app, new TaskTally(now, loadIntegral));
        ranks.put(app, rankOf(app));
    }

    /** The query and stage a running application's tag names; empty for an application scheduled alone. */
    Optional<QueryTags.JobTag> tag(ApplicationId app) {
        String stage = stageOfApp.get(app);
        return singleApplication || stage == null || stage.isEmpty() || !running.contains(app) ? Optional.empty()
                : Optional.of(new QueryTags.JobTag(key, stage));
    }

    /** Whether a running application has launched a task container. */
    boolean launchedTask(ApplicationId app) {
        return running.contains(app) && !awaitingFirstTask.contains(app);
    }

    /** The application finished {@code now}; what it cost beyond its estimate teaches {@code costs}. */
    void remove(ApplicationId app, long now, double loadIntegral, LearnedJobCosts costs) {
        if (!running.remove(app)) {
            return;
        }
        tallies.get(app).accrue(now, loadIntegral);
        awaitingFirstTask.remove(app);
        firstAsk.remove(app);
        amQueuedMillis.remove(app);
        arrivedOfApp.remove(app);
        Forecast forecast = forecastOfApp.remove(app);
        double took = Math.max(0, now - readyOfApp.remove(app)) / 1000.0;
        String stage = stageOfApp.get(app);
        finishedTags.add(stage);
        lastJobEndMillis = now;
        TaskTally tally = tallies.remove(app);
        ranks.remove(app);
        Optional<JobNode> job = jobOf(stage);
        if (tally.completed > 0) {
            costs.ended(Math.max(0, now - tally.lastEndMillis) / 1000.0);
            learnEndOnPath(tally.lastEndMillis, now, costs);
            job.ifPresent(j -> costs.worked(tally.seconds, j.estimate().wrd(), EstimateKind.of(j.estimate()), tally.load()));
            // by the K learned with this job too; kept for a job the DAG names only later (workAccount)
            tally.secondsAtFullSpeed = tally.fullSpeedSeconds(costs.now());
        }
        if (job.isPresent() && tally.completed > 0) {
            observedFinished += tally.seconds;
            observedFinishedFullSpeed += tally.secondsAtFullSpeed;
            predictedFinished += job.get().estimate().wrd();
            if (job.get().estimate().reduceTasks() > 0) {
                costs.handedOff(tally.idleSeconds);
            }
        }
        finishedByStage.computeIfAbsent(stage, k -> new TaskTally()).add(tally);
        if (running.isEmpty()) {
            idleSinceMillis = now;
        }
        if (forecast != null && took > 0) {
            double tasksTook = tally.completed > 0 && tally.firstLaunchMillis >= 0
                    ? Math.max(0, tally.lastEndMillis - tally.firstLaunchMillis) / 1000.0 : 0;
            JobEstimate e = forecast.estimate();
            forecasts.add(new JobForecast(stage, forecast.seconds(), took, new JobForecast.Tasks(forecast.taskSeconds(),
                    tasksTook, e.mapTasks() + e.reduceTasks(), tally.completed, e.wrd(), forecast.correction(),
                    forecast.parallelism(), tally.secondsAtFullSpeed)));
        }
    }

    /**
     * A job whose tasks ended at {@code lastEndMillis} was removed {@code now}: if a job of the
     * query arrived since its tasks ended, the query waited for its end only until then; if none
     * did, until now, should a next job come ({@link #add}).
     */
    private void learnEndOnPath(long lastEndMillis, long now, LearnedJobCosts costs) {
        OptionalLong next = arrivedOfApp.values().stream().mapToLong(Mark::atMillis)
                .filter(arrived -> arrived >= lastEndMillis).min();
        if (next.isPresent()) {
            costs.endedOnPath((next.getAsLong() - lastEndMillis) / 1000.0);
        } else {
            endIfFollowed = Math.max(0, now - lastEndMillis) / 1000.0;
        }
    }

    /**
     * The application asked for task containers {@code now}, the cluster having launched
     * {@code launches} tasks so far; only a first ask before its first task counts.
     */
    void tasksAsked(ApplicationId app, long now, long launches) {
        if (awaitingFirstTask.contains(app)) {
            firstAsk.putIfAbsent(app, new Mark(now, launches));
        }
    }

    /**
     * The application's ApplicationMaster was launched {@code now}, the cluster having launched
     * {@code launches} tasks so far. If other jobs' tasks launched since the application arrived,
     * its AM queued behind them (AM admission holding a low-ranked query, or a full cluster):
     * queueing, not start-up, so {@link #taskLaunched} leaves it out.
     */
    void amLaunched(ApplicationId app, long now, long launches) {
        Mark arrived = arrivedOfApp.get(app);
        if (arrived != null) {
            amQueuedMillis.putIfAbsent(app, launches > arrived.launches() ? Math.max(0, now - arrived.atMillis()) : 0);
        }
    }

    /**
     * A task container of the application was launched {@code now}, as the cluster's
     * {@code launches}-th: for its first, how long the job took to start; for a later one
     * launched when none ran, the idle gap before it (the hand-off, see {@link LearnedJobCosts}).
     * A job that asked and saw other jobs' tasks launched before its own waited for containers
     * (a sibling ahead of it in LoDFA's order, a query ahead in QEF's), which is not start-up:
     * its start ends at its ask. Nor is its ApplicationMaster's queueing ({@link #amLaunched}).
     */
    OptionalDouble taskLaunched(ApplicationId app, long now, double loadIntegral, long launches) {
        TaskTally tally = tallies.get(app);
        if (tally != null) {
            tally.accrue(now, loadIntegral);
            if (tally.running == 0 && tally.completed > 0) {
                tally.idleSeconds += Math.max(0, now - tally.lastEndMillis) / 1000.0;
            }
            if (tally.firstLaunchMillis < 0) {
                tally.firstLaunchMillis = now;
            }
            tally.running++;
        }
        Mark ask = firstAsk.remove(app);
        long amQueued = amQueuedMillis.getOrDefault(app, 0L);
        if (!awaitingFirstTask.remove(app)) {
            return OptionalDouble.empty();
        }
        boolean passedOver = ask != null && launches - 1 > ask.launches();
        long started = passedOver ? ask.atMillis() : now;
        return OptionalDouble.of(Math.max(0, started - readyOfApp.get(app) - amQueued) / 1000.0);
    }

    /**
     * Forecasts the time of every job that has arrived but not yet run a task: its start-up, then
     * its estimated maps, the hand-off and its reduces (rescaled as {@link #fullSpeed} says) on
     * the containers its query's jobs ranked before it leave (Hive's parallel stages: LoDFA, or
     * arrival order, serves a query's jobs one after another), each phase slowed by the tasks
     * expected to run beside it, then its end. A job ahead holds as many containers as its first
     * phase runs at once until its tasks end by its own forecast ({@link #onFreedShare}). The
     * forecast counts from when the job could start, not from now: renewed at every ordering
     * until its first task, it takes in what became known (siblings, learned costs) but not how
     * long the job has waited so far. Jobs whose tasks started before the descriptor was known
     * get none, so every forecast precedes what it predicts.
     *
     * @param load the tasks expected to run on the cluster as these jobs start: those running
     *             now and the first phases of those about to start ({@link #startingTasks})
     */
    void forecast(double capacity, LearnedJobCosts.JobCosts costs, double load) {
        if (!status.honoured()) {
            return;
        }
        // the jobs ahead in the query's order: containers each holds, from when until when
        List<Holding> ahead = new ArrayList<>();
        for (ApplicationId app : running.stream().sorted(this::compareRanks).toList()) {
            JobFacts facts = factsOf(stageOfApp.get(app));
            if (facts == null) {
                continue;
            }
            JobEstimate e = facts.job().estimate();
            long ready = readyOfApp.get(app);
            long tasksStart = ready + Math.round(costs.startSeconds() * 1000);
            if (awaitingFirstTask.contains(app)) {
                double held = ahead.stream().filter(h -> h.holds(tasksStart)).mapToDouble(Holding::containers).sum();
                double atFirst = firstPhase(e, Math.max(0, capacity - held));
                FullSpeed f = fullSpeed(e, costs);
                // as its share grows its tasks take the places of those ahead, so the load beside it stays as it was
                double others = Math.max(0, load - atFirst);
                DoubleUnaryOperator onShare = s -> phases(e, f, s, Math.max(0, others - (firstPhase(e, s) - atFirst)));
                double tasks = costs.handOff(e.reduceTasks() > 0)
                        + onFreedShare(onShare, capacity, held, changesAfter(tasksStart, ahead));
                forecastOfApp.put(app, new Forecast(costs.overhead() + tasks, tasks, e, f.correction(), f.parallelism()));
                ahead.add(new Holding(firstPhase(e, capacity), tasksStart, tasksStart + Math.round(tasks * 1000)));
            } else {
                // running its tasks: until they end by its standing forecast, or throughout without one
                Forecast f = forecastOfApp.get(app);
                ahead.add(new Holding(firstPhase(e, capacity), Long.MIN_VALUE, f == null ? Long.MAX_VALUE
                        : ready + Math.round((f.seconds() - costs.endSeconds()) * 1000)));
            }
        }
    }

    /** Containers a job ahead in the query's order holds while its tasks run, from and until (epoch ms). */
    private record Holding(double containers, long fromMillis, long untilMillis) {
        boolean holds(long at) {
            return fromMillis <= at && at < untilMillis;
        }
    }

    /**
     * What the jobs ahead take and let go after {@code start}: seconds after it and containers
     * (negative: let go), by time; a job that never lets go is held throughout.
     */
    private static double[][] changesAfter(long start, List<Holding> ahead) {
        List<double[]> changes = new ArrayList<>();
        for (Holding h : ahead) {
            if (h.fromMillis() > start) {
                changes.add(new double[] {(h.fromMillis() - start) / 1000.0, h.containers()});
            }
            if (h.untilMillis() > start && h.untilMillis() < Long.MAX_VALUE) {
                changes.add(new double[] {(h.untilMillis() - start) / 1000.0, -h.containers()});
            }
        }
        changes.sort(Comparator.comparingDouble(c -> c[0]));
        return changes.toArray(double[][]::new);
    }

    /** The query's running applications in the order the policy serves them (LoDFA, or arrival). */
    private int compareRanks(ApplicationId a, ApplicationId b) {
        return AppRank.compare(rank(a), rank(b), null);
    }

    /**
     * Seconds a job's tasks take on the containers of {@code capacity} that the jobs ahead of it
     * do not hold: {@code held} at first, then as they take and let go of theirs
     * ({@code changes}: seconds after the job's tasks start and containers, by time). Fluid: on
     * c containers the job does 1 / {@code alone}(c) of itself per second, so 8 maps of 10 s
     * behind a job holding 8 of 10 containers for 10 s do a quarter of their 80 container-s on
     * the 2 left, then the rest on all 10 in 7.5 s: 17.5 s. A job ahead that never lets go leaves
     * it at least one container, as YARN gives it one when any task ahead ends.
     */
    private static double onFreedShare(DoubleUnaryOperator alone, double capacity, double held, double[][] changes) {
        double elapsed = 0;
        double done = 0;
        for (double[] change : changes) {
            double share = capacity - held;
            if (change[0] > elapsed && share > 0) {
                double whole = alone.applyAsDouble(share);
                if (!(whole > 0)) {
                    return elapsed;
                }
                if (elapsed + (1 - done) * whole <= change[0]) {
                    return elapsed + (1 - done) * whole;
                }
                done += (change[0] - elapsed) / whole;
            }
            elapsed = Math.max(elapsed, change[0]);
            held += change[1];
        }
        return elapsed + (1 - done) * alone.applyAsDouble(Math.max(Math.min(1, capacity), capacity - held));
    }

    /**
     * A job's map then reduce phase on {@code containers}, its estimated task times at full speed
     * as {@code f} rescales them, each phase slowed by its own tasks and {@code others} running
     * beside them.
     */
    private static double phases(JobEstimate e, FullSpeed f, double containers, double others) {
        return ServiceTime.phased(e.mapTaskSeconds() * e.mapTasks() * f.correction(), e.mapTasks(),
                e.reduceTaskSeconds() * e.reduceTasks() * f.correction(), e.reduceTasks(), containers,
                running -> ServiceTime.slowdown(others + running, f.parallelism()));
    }

    /** The tasks a job starting on {@code share} containers runs at once in its first phase. */
    private static double firstPhase(JobEstimate e, double share) {
        return Math.min(share, e.mapTasks() > 0 ? e.mapTasks() : e.reduceTasks());
    }

    /**
     * Tasks the query's jobs that have not launched one yet will run at first ({@link #forecast}):
     * their first phases, as many as the cluster's containers hold.
     */
    double startingTasks(double capacity) {
        if (!status.honoured()) {
            return 0;
        }
        double tasks = 0;
        for (ApplicationId app : awaitingFirstTask) {
            JobFacts facts = factsOf(stageOfApp.get(app));
            tasks += facts == null ? 0 : firstPhase(facts.job().estimate(), capacity);
        }
        return Math.min(capacity, tasks);
    }

    /** Task containers of the query running now. */
    int runningTasks() {
        return tallies.values().stream().mapToInt(t -> t.running).sum();
    }

    /**
     * A non-AM container of a running application finished {@code now} after {@code seconds}.
     *
     * @return the largest input table of the application's job, for LoDFA's node history
     */
    Optional<String> containerFinished(ApplicationId app, double seconds, long now, double loadIntegral) {
        TaskTally tally = tallies.get(app);
        if (tally != null) {
            tally.accrue(now, loadIntegral);
            tally.running = Math.max(0, tally.running - 1);
        }
        if (tally != null && seconds >= 0 && Double.isFinite(seconds)) {
            tally.completed++;
            tally.seconds += seconds;
            tally.lastEndMillis = now;
        }
        JobFacts facts = factsOf(stageOfApp.get(app));
        return facts == null ? Optional.empty() : facts.largestInput();
    }

    /**
     * Of {@code seconds} of work just observed, the part no descriptor announced, for the load
     * ρ: all of it without a descriptor; with one, only what goes beyond the descriptor's WRD,
     * so an under-estimating descriptor does not keep ρ (and with it D) too low.
     */
    double unannouncedWork(double seconds) {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            return 0;
        }
        double before = observedWork;
        observedWork += seconds;
        if (!status.honoured()) {
            return seconds;
        }
        return Math.max(0, observedWork - Math.max(descriptor.dag().totalWrd(), before));
    }

    void honour(QueryDescriptor d) {
        descriptor = d;
        Map<String, Integer> depths = d.dag().depths();
        Map<String, JobFacts> byStage = new HashMap<>();
        for (JobNode job : d.dag().jobs()) {
            Set<String> inputs = job.inputTables().stream().map(TableRef::name).collect(Collectors.toUnmodifiableSet());
            JobFacts facts = new JobFacts(job, depths.get(job.stageId()), NodeHistory.largestInput(job), inputs);
            byStage.put(job.stageId().toLowerCase(Locale.ROOT), facts);
            job.alternatives().forEach(a -> byStage.putIfAbsent(a.toLowerCase(Locale.ROOT), facts));
        }
        jobs = byStage;
        parentsFirst = d.dag().parentsFirst();
        status = DescriptorStatus.LOADED;
        problem = "";
        running.forEach(app -> ranks.put(app, rankOf(app)));
    }

    /**
     * Takes a newer descriptor of the same query (the hook's re-estimate once some jobs finished).
     *
     * @return false, changing nothing, when it is not newer than the one honoured
     */
    boolean revise(QueryDescriptor d) {
        if (!status.honoured() || d.publishedAtMillis() <= descriptor.publishedAtMillis()) {
            return false;
        }
        honour(d);
        revisions++;
        return true;
    }

    /** The honoured descriptor's total WRD; 0 without one. */
    double descriptorWrd() {
        return descriptor == null ? 0 : descriptor.dag().totalWrd();
    }

    void refuse(DescriptorStatus why, String problem) {
        status = why;
        this.problem = problem;
    }

    DescriptorStatus status() {
        return status;
    }

    /** The query's place in QEF's last order. */
    int position() {
        return position;
    }

    /** The rank of one of this query's running applications. */
    AppRank rank(ApplicationId app) {
        return ranks.getOrDefault(app, AppRank.UNKNOWN);
    }

    /** QEF placed the query at {@code position}: its applications' ranks follow. */
    void place(Placement placement, int position) {
        this.placement = Optional.of(placement);
        if (this.position != position) {
            this.position = position;
            running.forEach(app -> ranks.put(app, rankOf(app)));
        }
    }

    /**
     * What QEF needs to know about the query now. Work of a job that is running comes from what
     * YARN sees (containers asked for and held) and from the task times observed so far; only
     * until a job's first container finishes does its descriptor's task time count. Jobs not
     * started yet keep their estimates, rescaled by how far the finished jobs' observed work
     * was from their estimates. T_alone is re-evaluated from the same best-known work, so a
     * wrong estimate moves T_rem and T_alone together and the slowdown stays meaningful; a job
     * that has launched no task yet is timed as its forecast times it alone (its task times at
     * full speed, each phase slowed by the contention of its own tasks), since the time model's
     * task times are at full speed.
     */
    QueryState state(long now, double capacity, Function<ApplicationId, AppDemand> demand, double defaultTaskSeconds,
                     LearnedJobCosts.JobCosts costs) {
        double sojourn = Math.max(0, now - firstSeenMillis) / 1000.0;
        long arrival = arrivalOfApp.isEmpty() ? Long.MAX_VALUE : arrivalOfApp.values().iterator().next();
        Map<ApplicationId, AppDemand> demands = new HashMap<>(); // asked of YARN once per application
        running.forEach(app -> demands.put(app, demand.apply(app)));
        Map<String, Work> work = status.honoured()
                ? dagWork(demands::get, defaultTaskSeconds, capacity, costs)
                : applicationWork(demands::get, defaultTaskSeconds);
        double remaining = 0;
        double total = 0;
        for (Work w : work.values()) {
            remaining += w.remaining();
            total += w.total();
        }
        double remainingPath;
        double totalPath;
        if (status.honoured()) {
            remainingPath = QueryDag.longestPath(parentsFirst, j -> remainingSeconds(work.get(j.stageId()), capacity, costs));
            totalPath = QueryDag.longestPath(parentsFirst, j -> totalSeconds(work.get(j.stageId()), capacity, costs));
        } else {
            remainingPath = work.values().stream().mapToDouble(w -> remainingSeconds(w, capacity, costs)).max().orElse(0);
            totalPath = work.values().stream().mapToDouble(w -> totalSeconds(w, capacity, costs)).max().orElse(0);
        }
        long held = demands.values().stream().mapToLong(AppDemand::running).sum();
        return new QueryState(key, arrival, sojourn, remaining,
                ServiceTime.dag(remainingPath, remaining, capacity), ServiceTime.dag(totalPath, total, capacity), held);
    }

    /**
     * A job's time still to run alone: its remaining work, its start-up if it has not started, the
     * hand-off if its reduces are known to be still to come, its end on the path if it has not
     * finished ({@link LearnedJobCosts}).
     */
    private static double remainingSeconds(Work w, double capacity, LearnedJobCosts.JobCosts costs) {
        return w.seconds(w.remaining(), w.remainingTasks(), capacity) + costs.pathOverhead(w.started(), w.finished())
                + costs.handOff(w.reduceTasks() > 0);
    }

    /** A job's whole time alone: start-up, all its work, the hand-off where its reduces are known, and its end on the path. */
    private static double totalSeconds(Work w, double capacity, LearnedJobCosts.JobCosts costs) {
        return w.seconds(w.total(), w.totalTasks(), capacity) + costs.pathOverhead(false, false)
                + costs.handOff(w.reduceTasks() > 0);
    }

    /** The running applications of each DAG job, keyed by stage id. */
    private Map<String, List<ApplicationId>> runningByJob() {
        Map<String, List<ApplicationId>> byJob = new HashMap<>();
        for (ApplicationId app : running) {
            JobFacts facts = factsOf(stageOfApp.get(app));
            if (facts != null) {
                byJob.computeIfAbsent(facts.job().stageId(), k -> new ArrayList<>()).add(app);
            }
        }
        return byJob;
    }

    /** Work of every DAG job, keyed by stage id. */
    private Map<String, Work> dagWork(Function<ApplicationId, AppDemand> demand, double defaultTaskSeconds,
                                      double capacity, LearnedJobCosts.JobCosts costs) {
        Map<String, List<ApplicationId>> runningByJob = runningByJob();
        Map<String, TaskTally> finishedByJob = new HashMap<>();
        finishedByStage.forEach((stage, tally) -> jobOf(stage)
                .ifPresent(j -> finishedByJob.computeIfAbsent(j.stageId(), k -> new TaskTally()).add(tally)));
        Set<String> finished = new HashSet<>(finishedStages());
        Map<String, Work> work = new HashMap<>();
        for (JobNode job : descriptor.dag().jobs()) {
            JobEstimate estimate = job.estimate();
            double correction = correction(estimate, costs);
            TaskTally done = finishedByJob.getOrDefault(job.stageId(), new TaskTally());
            List<ApplicationId> apps = runningByJob.get(job.stageId());
            Work w;
            if (apps != null) {
                w = runningWork(apps, demand, estimate.mapTasks() + estimate.reduceTasks(),
                        taskSeconds(estimate, defaultTaskSeconds) * correction, done.seconds);
                if (done.completed == 0 && awaitingFirstTask.containsAll(apps)) {
                    // submitted, no task launched: timed as its forecast, like a job still to come
                    w = new Work(w.remaining(), w.remainingTasks(), w.total(), w.totalTasks(), true,
                            estimate.reduceTaskSeconds() * estimate.reduceTasks() * correction, estimate.reduceTasks(),
                            phases(estimate, fullSpeed(estimate, costs), capacity, 0));
                }
            } else if (finished.contains(job.stageId())) {
                w = new Work(0, 0, done.seconds, done.completed, true);
            } else {
                double tasks = estimate.mapTasks() + estimate.reduceTasks();
                double wrd = estimate.wrd() * correction;
                double reduceWrd = estimate.reduceTaskSeconds() * estimate.reduceTasks() * correction;
                // its time alone as its forecast will say: at full speed, slowed by its own tasks
                w = new Work(wrd, tasks, wrd, tasks, false, reduceWrd, estimate.reduceTasks(),
                        phases(estimate, fullSpeed(estimate, costs), capacity, 0));
            }
            work.put(job.stageId(), w);
        }
        return work;
    }

    /** Work of each running application as a job of its own: no DAG is known. */
    private Map<String, Work> applicationWork(Function<ApplicationId, AppDemand> demand, double defaultTaskSeconds) {
        Map<String, Work> work = new HashMap<>();
        for (ApplicationId app : running) {
            work.put(app.toString(), runningWork(List.of(app), demand, 0, defaultTaskSeconds, 0));
        }
        TaskTally done = new TaskTally();
        finishedByStage.values().forEach(done::add);
        work.put("", new Work(0, 0, done.seconds, done.completed, true));
        return work;
    }

    /**
     * A running job's work: the tasks outstanding are what YARN sees, or what the estimate
     * still expects if that is more (reduces are asked for only once maps progress); a
     * running task counts half. Observed task times replace the estimated one.
     */
    private Work runningWork(List<ApplicationId> apps, Function<ApplicationId, AppDemand> demand,
                             double estimatedTasks, double estimatedTaskSeconds, double usedBefore) {
        long pending = 0;
        long held = 0;
        long completed = 0;
        double used = usedBefore;
        for (ApplicationId app : apps) {
            AppDemand d = demand.apply(app);
            pending += d.pending();
            held += d.running();
            TaskTally tally = tallies.get(app);
            completed += tally.completed;
            used += tally.seconds;
        }
        double taskSeconds = completed > 0 ? (used - usedBefore) / completed : estimatedTaskSeconds;
        double outstanding = Math.max(pending + held, estimatedTasks - completed);
        double remaining = taskSeconds * Math.max(0, outstanding - held / 2.0);
        return new Work(remaining, outstanding, used + remaining, outstanding + completed, true);
    }

    /** A job's mean estimated task time, or the default when the estimate has no tasks. */
    private static double taskSeconds(JobEstimate e, double defaultTaskSeconds) {
        int tasks = e.mapTasks() + e.reduceTasks();
        return tasks == 0 ? defaultTaskSeconds : e.wrd() / tasks;
    }

    /**
     * Observed over estimated work of the query's finished jobs, within bounds; before any
     * finishes, what the cluster's other jobs with estimates of {@code e}'s kind taught
     * ({@link LearnedJobCosts}).
     */
    private double correction(JobEstimate e, LearnedJobCosts.JobCosts costs) {
        return correction(observedFinished, costs.scale(EstimateKind.of(e)).work());
    }

    /**
     * The same at full speed, with the K of the slowdown a forecast adds for the load it expects.
     * Until a finished job of the query or of {@code e}'s kind has shown how such estimates sit
     * in the cluster's own K, an estimate a time model made is taken at its word in the model's
     * K: the trainer fits K over single tasks and the scheduler over whole jobs, and the two
     * differ (2.3 against 1.4 on the mini-cluster), so the cluster's K alone would mistime the
     * first such job by their ratio.
     */
    private FullSpeed fullSpeed(JobEstimate e, LearnedJobCosts.JobCosts costs) {
        EstimateKind kind = EstimateKind.of(e);
        boolean untaught = !(predictedFinished > 0 && observedFinishedFullSpeed > 0) && !costs.taught(kind);
        if (untaught && kind.atFullSpeed()) {
            return new FullSpeed(1, e.parallelism());
        }
        return new FullSpeed(correction(observedFinishedFullSpeed, costs.scale(kind).fullSpeed()), costs.parallelism());
    }

    /** Observed over estimated work at full speed, where {@code parallelism} tasks run at full speed. */
    private record FullSpeed(double correction, double parallelism) {
    }

    private double correction(double observed, double learned) {
        if (!(predictedFinished > 0) || !(observed > 0)) {
            return learned;
        }
        return Math.min(MAX_CORRECTION, Math.max(MIN_CORRECTION, observed / predictedFinished));
    }

    private AppRank rankOf(ApplicationId app) {
        long arrival = arrivalOfApp.get(app);
        JobFacts facts = status.honoured() ? factsOf(stageOfApp.get(app)) : null;
        if (facts == null || !dfa) {
            return new AppRank(position, 1, 0, arrival, Set.of());
        }
        return new AppRank(position, facts.depth(), facts.job().estimate().wrd(), arrival, facts.inputs());
    }

    /**
     * Whether a job of the query is due: one of its DAG that has neither run nor started, whose
     * parents have all finished, less than {@code withinMillis} after the query's last job ended
     * (Hive submits the next job seconds after the jobs it follows end). Only a query whose
     * descriptor was honoured knows its DAG; a due job that never comes (a stage Hive skipped)
     * stops counting once the time is up.
     */
    boolean jobDue(long now, long withinMillis) {
        if (!status.honoured() || lastJobEndMillis < 0 || now - lastJobEndMillis >= withinMillis) {
            return false;
        }
        Set<String> finished = new HashSet<>(finishedStages());
        Set<String> started = runningByJob().keySet();
        return descriptor.dag().jobs().stream().anyMatch(j -> !finished.contains(j.stageId())
                && !started.contains(j.stageId()) && finished.containsAll(j.parents()));
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
                finishedStages(), firstSeenMillis, retiredAt, retiredAt.isPresent() ? Optional.empty() : placement,
                workAccount(), forecasts, standingForecasts(), revisions);
    }

    /** Running applications' forecasts by their stage tags (two applications of one stage: the longer). */
    private Map<String, Double> standingForecasts() {
        Map<String, Double> standing = new HashMap<>();
        forecastOfApp.forEach((app, f) -> standing.merge(stageOfApp.get(app), f.seconds(), Math::max));
        return standing;
    }

    /**
     * The finished DAG jobs' estimated WRD against the container-seconds their tasks used. Per
     * job, not per application, so a job Hive ran as two applications counts its estimate once.
     */
    private Optional<WorkAccount> workAccount() {
        if (!status.honoured()) {
            return Optional.empty();
        }
        Map<String, TaskTally> byJob = new HashMap<>();
        Map<String, JobNode> jobById = new HashMap<>();
        finishedByStage.forEach((stage, tally) -> jobOf(stage).ifPresent(j -> {
            byJob.computeIfAbsent(j.stageId(), k -> new TaskTally()).add(tally);
            jobById.put(j.stageId(), j);
        }));
        int counted = 0;
        double predicted = 0;
        double observed = 0;
        double atFullSpeed = 0;
        for (Map.Entry<String, TaskTally> e : byJob.entrySet()) {
            if (e.getValue().completed > 0) {
                counted++;
                predicted += jobById.get(e.getKey()).estimate().wrd();
                observed += e.getValue().seconds;
                atFullSpeed += e.getValue().secondsAtFullSpeed;
            }
        }
        return counted > 0 && observed > 0
                ? Optional.of(new WorkAccount(counted, predicted, observed, atFullSpeed))
                : Optional.empty();
    }

    private Optional<JobNode> jobOf(String stage) {
        return Optional.ofNullable(factsOf(stage)).map(JobFacts::job);
    }

    private JobFacts factsOf(String stage) {
        return stage == null ? null : jobs.get(stage.toLowerCase(Locale.ROOT));
    }
}
