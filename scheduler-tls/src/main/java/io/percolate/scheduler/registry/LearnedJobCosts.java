package io.percolate.scheduler.registry;

import io.percolate.scheduler.qef.ServiceTime;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * What every MapReduce job costs on this cluster beyond its estimated tasks, learned from the
 * jobs the scheduler sees. A configured guess is right on no cluster, so the first observation
 * replaces it, and later ones join it in exponentially weighted means, recent jobs weighing most
 * ({@link DecayingMean}).
 * <ul>
 * <li><b>start</b>: from the moment a job could start (its arrival, or for a query's next job
 *     the moment its previous one finished, which covers Hive's hand-off) to its first task
 *     container's launch;</li>
 * <li><b>end</b>: from its last task container's end to the application's removal (output
 *     commit, ApplicationMaster exit);</li>
 * <li><b>end on the path</b>: the part of the end a query waits for: until its next job arrives,
 *     if that comes before the removal. Hive hears a job has succeeded when its ApplicationMaster
 *     says so and submits the next while the old one is still exiting, so a chain of jobs pays
 *     less than a full end per job; learned from jobs a next job followed, the end until then;</li>
 * <li><b>hand-off</b>: of a job with reduces, the time between its first and last task when none
 *     of its tasks ran: its maps are done and its reduces are yet to be asked for, granted and
 *     launched (2.3 s a job on the mini-cluster, in neither phase's task times); 0 where the
 *     reduces start while maps still run. Waiting for containers other queries hold counts too;</li>
 * <li><b>work scale</b>: container-seconds the tasks of finished jobs used over their
 *     descriptors' WRD, pooled (a job weighs by its estimated work, as a query's own finished
 *     jobs correct the rest of it) — how far the hook's task times are off on this cluster at the
 *     load it usually runs, applied to every query until the query's own finished jobs say better. It is kept for each
 *     {@link EstimateKind} apart: estimates made differently (a trained model at full speed, or
 *     throughput defaults; with statistics or without) have different biases, and a newly
 *     trained model must not inherit the bias of the defaults it replaced;</li>
 * <li><b>parallelism</b>: how many tasks the cluster runs at full speed
 *     ({@link TaskContention}), from the same jobs' ratios and the loads they ran under, and
 *     the <b>full-speed scale</b>, the work scale without that slowdown: together they forecast
 *     a job under the load expected beside it.</li>
 * </ul>
 * Start and the end on the path are part of every job's time on its query's path, so T_alone and
 * T_rem depend on them. Confined to the scheduler's lock, like the registry.
 */
final class LearnedJobCosts {
    /** Weight of each new observation: about the last ten jobs count. */
    static final double WEIGHT = 0.2;
    /** Finished jobs the parallelism and full-speed scale are learned from: older ones would weigh under 10⁻⁴. */
    static final int WINDOW = 40;

    private final double priorStartSeconds;
    private final DecayingMean startSeconds = new DecayingMean(WEIGHT);
    private final DecayingMean endSeconds = new DecayingMean(WEIGHT);
    /** empty until a job with a next job was seen: the whole end counts until then */
    private final DecayingMean pathEndSeconds = new DecayingMean(WEIGHT);
    private final DecayingMean handOffSeconds = new DecayingMean(WEIGHT);
    private double parallelism = Double.POSITIVE_INFINITY;
    /** the last {@link #WINDOW} finished jobs of every kind, which K is learned from */
    private final ArrayDeque<TaskContention.Observation> recent = new ArrayDeque<>();
    /** the same for each kind of estimate, which its full-speed scale is learned from */
    private final Map<EstimateKind, ArrayDeque<TaskContention.Observation>> recentOfKind = new HashMap<>();
    private final Map<EstimateKind, DecayingMean> workScales = new HashMap<>();
    private final Map<EstimateKind, Scale> scales = new HashMap<>();

    /** @param priorStartSeconds the start-up assumed until the first job is observed ({@code job-start-seconds}) */
    LearnedJobCosts(double priorStartSeconds) {
        if (!(priorStartSeconds >= 0) || Double.isInfinite(priorStartSeconds)) {
            throw new IllegalArgumentException("priorStartSeconds must be >= 0, got " + priorStartSeconds);
        }
        this.priorStartSeconds = priorStartSeconds;
    }

    /** A job's first task was launched {@code seconds} after the job could start. */
    void started(double seconds) {
        addIfTime(startSeconds, seconds);
    }

    /** A job's application was removed {@code seconds} after its last task container ended. */
    void ended(double seconds) {
        addIfTime(endSeconds, seconds);
    }

    /**
     * A finished job's query's next job arrived {@code seconds} after its last task container
     * ended, or its application was removed then if that came first.
     */
    void endedOnPath(double seconds) {
        addIfTime(pathEndSeconds, seconds);
    }

    /** A finished job with reduces spent {@code seconds} between its tasks with none of them running. */
    void handedOff(double seconds) {
        addIfTime(handOffSeconds, seconds);
    }

    /** Negative or infinite times are not observations (a clock step, a missed event). */
    private static void addIfTime(DecayingMean mean, double seconds) {
        if (seconds >= 0) {
            mean.add(seconds);
        }
    }

    /**
     * A finished job's tasks used {@code observed} container-seconds where its descriptor estimated
     * {@code estimated} with an estimate of {@code kind}, while {@code load} tasks ran on the cluster on
     * average (NaN: not known).
     */
    void worked(double observed, double estimated, EstimateKind kind, double load) {
        if (!(observed > 0 && estimated > 0 && Double.isFinite(observed / estimated))) {
            return;
        }
        double ratio = Math.min(TrackedQuery.MAX_CORRECTION, Math.max(TrackedQuery.MIN_CORRECTION, observed / estimated));
        var job = new TaskContention.Observation(ratio, load >= 1 && Double.isFinite(load) ? load : Double.NaN, kind,
                estimated);
        remember(recent, job);
        remember(recentOfKind.computeIfAbsent(kind, k -> new ArrayDeque<>()), job);
        parallelism = TaskContention.fit(recent.stream().filter(o -> !Double.isNaN(o.load())).toList(), 1 - WEIGHT);
        workScales.computeIfAbsent(kind, k -> new DecayingMean(WEIGHT)).add(ratio, estimated);
        recentOfKind.forEach((k, window) -> scales.put(k,
                new Scale(workScales.get(k).orElse(Scale.UNLEARNED.work()), fullSpeed(window))));
    }

    /**
     * The work scale of {@code jobs} at full speed: the mean again from the start, each ratio divided
     * by the slowdown of its load by the K believed now, since jobs that ran before K was known must
     * not keep their slowdown in it.
     */
    private double fullSpeed(ArrayDeque<TaskContention.Observation> jobs) {
        DecayingMean scale = new DecayingMean(WEIGHT);
        for (TaskContention.Observation o : jobs) {
            scale.add(o.ratio() / ServiceTime.slowdown(o.load(), parallelism), o.estimated());
        }
        return scale.orElse(Scale.UNLEARNED.fullSpeed());
    }

    private static void remember(ArrayDeque<TaskContention.Observation> window, TaskContention.Observation job) {
        window.addLast(job);
        if (window.size() > WINDOW) {
            window.removeFirst();
        }
    }

    JobCosts now() {
        double end = endSeconds.orElse(0);
        return new JobCosts(startSeconds.orElse(priorStartSeconds), end, pathEndSeconds.orElse(end),
                handOffSeconds.orElse(0), parallelism, Map.copyOf(scales));
    }

    /**
     * Observed over estimated task work of one kind of estimate.
     *
     * @param work      as the tasks ran
     * @param fullSpeed less the slowdown of the load each job ran under
     */
    record Scale(double work, double fullSpeed) {
        /** Of a kind no finished job had yet: its estimates are taken at their word. */
        static final Scale UNLEARNED = new Scale(1, 1);
    }

    /**
     * The learned costs at one moment.
     *
     * @param startSeconds before a job's first task
     * @param endSeconds     after a job's last task
     * @param pathEndSeconds of that, what its query waits for
     * @param handOffSeconds between a job's maps and its reduces
     * @param parallelism    tasks the cluster runs at full speed (infinite: as many as it has containers)
     * @param scales         observed over estimated task work, of each kind of estimate seen
     */
    record JobCosts(double startSeconds, double endSeconds, double pathEndSeconds, double handOffSeconds, double parallelism,
                    Map<EstimateKind, Scale> scales) {
        /** How far estimates of {@code kind} are off. */
        Scale scale(EstimateKind kind) {
            return scales.getOrDefault(kind, Scale.UNLEARNED);
        }

        /** Whether a finished job with an estimate of {@code kind} has shown how far such estimates are off. */
        boolean taught(EstimateKind kind) {
            return scales.containsKey(kind);
        }

        /** A job's own cost outside its tasks, to its application's removal: start-up and end. */
        double overhead() {
            return startSeconds + endSeconds;
        }

        /**
         * What a job costs its query outside its tasks: its start-up if it has not started, its
         * end on the path if it has not finished.
         */
        double pathOverhead(boolean started, boolean finished) {
            return (started ? 0 : startSeconds) + (finished ? 0 : pathEndSeconds);
        }

        /** The hand-off a job still pays: only one whose reduces are still to come. */
        double handOff(boolean reducesToCome) {
            return reducesToCome ? handOffSeconds : 0;
        }

        /** How much slower than at full speed tasks run under {@code load} running tasks. */
        double slowdown(double load) {
            return ServiceTime.slowdown(load, parallelism);
        }
    }
}
