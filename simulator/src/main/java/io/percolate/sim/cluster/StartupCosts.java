package io.percolate.sim.cluster;

/**
 * What a MapReduce job pays besides its tasks' work: the seconds a real cluster spends starting
 * JVMs and committing. {@code bench simcheck} measures them on a real mini-cluster
 * ({@code calibration} in its result) and runs the simulator with them.
 *
 * <p>The two starts are either constants (a start takes its cost whatever else starts) or, with
 * {@code coresPerNode > 0}, CPU work: a start needs its cost in CPU time at one core, and the JVMs
 * starting on a node at once share its cores ({@link ProcessorSharing}), so a start takes its cost
 * alone and longer when many containers start together — as a FIFO scheduler starting a large
 * job's tasks all at once makes them.
 *
 * @param amStartMillis   from the ApplicationMaster's launch until it asks for its maps (JVM start, job init); charged
 *                        from the node heartbeat that reports the launch, as the simulator's AM always waited for it
 * @param taskStartMillis added to every task's work while it holds its container (container launch, JVM start,
 *                        task set-up and commit)
 * @param jobEndMillis    from the report of a job's last task until the job has finished (job commit, history)
 * @param amExitMillis    from the job's end until its ApplicationMaster gives its container back (unregister, exit)
 * @param coresPerNode    0 for constant starts; else the cores of a node that its starting JVMs share
 * @param jobGapMillis    Hive's gap before each job of a query (not a single-job application): the first is
 *                        submitted this long after the query arrives (compilation), each next one this long
 *                        after the jobs it follows end (on the real mini-cluster, medians of 2–6 s and 2.4–3.0 s)
 */
public record StartupCosts(long amStartMillis, long taskStartMillis, long jobEndMillis, long amExitMillis,
                           double coresPerNode, long jobGapMillis) {
    /** A job is only its tasks' work: what the simulator modelled before it was calibrated. */
    public static final StartupCosts NONE = new StartupCosts(0, 0, 0, 0);

    public StartupCosts {
        if (amStartMillis < 0 || taskStartMillis < 0 || jobEndMillis < 0 || amExitMillis < 0) {
            throw new IllegalArgumentException("start-up costs must be >= 0 ms, got " + amStartMillis + ", "
                    + taskStartMillis + ", " + jobEndMillis + ", " + amExitMillis);
        }
        if (!(coresPerNode >= 0) || Double.isInfinite(coresPerNode)) {
            throw new IllegalArgumentException("cores per node must be >= 0 (0: constant starts), got " + coresPerNode);
        }
        if (jobGapMillis < 0) {
            throw new IllegalArgumentException("Hive's gap between jobs must be >= 0 ms, got " + jobGapMillis);
        }
    }

    /** Constant costs, no gap between jobs. */
    public StartupCosts(long amStartMillis, long taskStartMillis, long jobEndMillis, long amExitMillis) {
        this(amStartMillis, taskStartMillis, jobEndMillis, amExitMillis, 0, 0);
    }

    public static StartupCosts ofSeconds(double amStart, double taskStart, double jobEnd, double amExit) {
        return new StartupCosts(Math.round(amStart * 1000), Math.round(taskStart * 1000), Math.round(jobEnd * 1000),
                Math.round(amExit * 1000));
    }

    /** The same costs, the starts as CPU work shared by the JVMs starting on a node of {@code cores} cores. */
    public StartupCosts sharingCores(double cores) {
        return new StartupCosts(amStartMillis, taskStartMillis, jobEndMillis, amExitMillis, cores, jobGapMillis);
    }

    /** The same costs with Hive's gap before each job of a query. */
    public StartupCosts withJobGap(long millis) {
        return new StartupCosts(amStartMillis, taskStartMillis, jobEndMillis, amExitMillis, coresPerNode, millis);
    }

    /** Whether starts are CPU work shared on their node rather than constants. */
    public boolean sharesCores() {
        return coresPerNode > 0;
    }
}
