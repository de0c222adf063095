package io.percolate.scheduler.input;

import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * MixApart's data-aware compute scheduling (Algorithm 1) at the granularity YARN gives a
 * scheduler, the job: a job whose input is still mostly on the filer is passed over, before its
 * first task, in favour of jobs whose data is cached, while XDFS copies its input (the transfer
 * scheduler follows the query order, so it copies this job's first). Work-conserving, as in
 * MixApart: passing over only reorders, so a container no ready job asks for still goes to it.
 * Bounded, like delay scheduling: after {@code maxWait} the job keeps its place whatever its
 * input, so a job the cache tier is not fetching for loses at most that.
 *
 * <p>A job is never passed over once a task of it has run (its maps would be split between
 * cache and filer anyway, and flapping would only churn), nor for its ApplicationMaster, whose
 * start overlaps the copying. Called on the scheduler's update thread, under its lock.
 */
public final class InputWait {

    private final InputReadiness readiness;
    private final double readyShare;
    private final long maxWaitMillis;
    /** since when each job has been passed over (its first pass) */
    private final Map<ApplicationId, Long> waitingSince = new HashMap<>();
    /** jobs that ran a task, found their input ready or waited their fill: never passed over again */
    private final Set<ApplicationId> released = new HashSet<>();

    /**
     * @param readyShare share of a job's input blocks cached from which it is ready
     * @param maxWait    longest a job is passed over; zero turns passing over off
     */
    public InputWait(InputReadiness readiness, double readyShare, Duration maxWait) {
        this.readiness = requireNonNull(readiness, "readiness");
        if (!(readyShare > 0 && readyShare <= 1)) {
            throw new IllegalArgumentException("ready share must be in (0, 1], got " + readyShare);
        }
        this.readyShare = readyShare;
        this.maxWaitMillis = maxWait.toMillis();
    }

    /** A job as the update sees it: its query and stage, and whether it runs its ApplicationMaster or any task. */
    public record Job(ApplicationId app, String queryId, String stage, boolean amRunning, boolean ranTask) {
    }

    /** Whether jobs are ever passed over (a wait is configured). */
    public boolean enabled() {
        return maxWaitMillis > 0;
    }

    /** Whether {@code job} goes behind the jobs whose input is ready, as of {@code now}. */
    public boolean passOver(Job job, long now) {
        if (!enabled() || released.contains(job.app())) {
            return false;
        }
        if (job.ranTask()) {
            release(job.app());
            return false;
        }
        if (!job.amRunning()) {
            return false;
        }
        OptionalDouble share = readiness.cachedShare(job.queryId(), job.stage());
        if (share.isEmpty()) {
            return false;
        }
        if (share.getAsDouble() >= readyShare) {
            release(job.app());
            return false;
        }
        long since = waitingSince.computeIfAbsent(job.app(), app -> now);
        if (now - since >= maxWaitMillis) {
            release(job.app());
            return false;
        }
        return true;
    }

    /** Jobs passed over at least once and not yet released. */
    public int waiting() {
        return waitingSince.size();
    }

    /** The application left: forget it. */
    public void forget(ApplicationId app) {
        waitingSince.remove(app);
        released.remove(app);
    }

    private void release(ApplicationId app) {
        waitingSince.remove(app);
        released.add(app);
    }
}
