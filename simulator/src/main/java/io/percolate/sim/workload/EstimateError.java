package io.percolate.sim.workload;

import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The hook's estimation error, applied to a workload: each job's published task times are its
 * real ones times e^Z, Z ~ N(0, σ²), drawn per job from the workload's seed (a stream of its own,
 * so the workload itself is the same whatever σ). σ = 0.2 gives a mean relative error of about
 * 16 %, between the source's 14 % job-time error and the 22 % the cluster benchmark measured.
 */
public final class EstimateError {
    /** Keeps the error's random stream apart from the workload's. */
    private static final long STREAM = 0x5EEDE57L;

    private EstimateError() {
    }

    /** {@code workload} with every Hive query's descriptor off by σ; σ = 0 leaves it exact. */
    public static Workload apply(Workload workload, double sigma) {
        if (!(sigma >= 0)) {
            throw new IllegalArgumentException("estimate error must be >= 0, got " + sigma);
        }
        if (sigma == 0) {
            return workload;
        }
        SplittableRandom random = new SplittableRandom(workload.seed() ^ STREAM);
        List<SimQuery> queries = new ArrayList<>();
        for (SimQuery q : workload.queries()) {
            List<JobNode> jobs = new ArrayList<>();
            for (JobNode job : q.dag().jobs()) {
                double factor = Math.exp(sigma * gaussian(random));
                JobEstimate e = job.estimate();
                jobs.add(job.withEstimate(new JobEstimate(e.inputBytes(), e.outputBytes(), e.mapTasks(),
                        e.reduceTasks(), e.mapTaskSeconds() * factor, e.reduceTaskSeconds() * factor, e.confidence(),
                        e.parallelism())));
            }
            queries.add(q.publishing(new QueryDag(jobs)));
        }
        return new Workload(workload.name(), workload.seed(), workload.bins(), queries);
    }

    /** A standard normal draw (Box–Muller). */
    private static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
