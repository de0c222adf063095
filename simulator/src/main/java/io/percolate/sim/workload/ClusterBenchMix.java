package io.percolate.sim.workload;

import io.percolate.model.JobNode;
import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The real cluster benchmark's Facebook-like mix (integration-tests, {@code Mixes.facebook}) in the
 * simulator, to ask what any scheduler can gain on the 2-core mini-cluster. The draw is the
 * bench's: seed N here holds the queries of seed N there, in the same order, with the same
 * exponential gaps, scaled so the mix offers the requested load (a load of its expected work, so the
 * mean gap, like the bench's {@code --gap}, is the same for every seed: 10 s is a load of 2.86 on the
 * mini-cluster's 2 full-speed tasks). Each query is the chain of jobs
 * measured on the mini-cluster (TPC-H at SF 0.02, large queries at SF 0.1): each job's tasks and
 * full-speed container-seconds, as the bench's job-time records give them (runs of seeds 18 and
 * 20). Q18 and Q9 at SF 0.1 have no such record: they are modelled as Q3 at SF 0.1, the measured
 * large query.
 */
final class ClusterBenchMix implements WorkloadSource {
    /** The bench's bin shares (small, medium, large) and its queries per bin, in its order. */
    private static final double[] SHARES = {0.6, 0.25, 0.15};
    private static final List<String> BINS = List.of("small", "medium", "large");
    private static final int LARGE = 2;
    private static final List<List<Measured>> QUERIES = List.of(
            List.of(new Measured("nations per region", new double[][] {{2, 9.7}}),
                    new Measured("order priority", new double[][] {{2, 8.9}, {2, 5.8}}),
                    new Measured("q06", new double[][] {{4, 21.2}})),
            List.of(new Measured("q12", new double[][] {{9, 47.7}, {2, 8.6}, {2, 5.4}}),
                    new Measured("q14", new double[][] {{8, 29.8}, {2, 9.1}}),
                    new Measured("q13", new double[][] {{4, 16.7}, {2, 7.5}, {2, 6.2}, {2, 5.5}})),
            List.of(Measured.Q03_LARGE.named("q03@large"), Measured.Q03_LARGE.named("q18@large"),
                    Measured.Q03_LARGE.named("q09@large")));

    /**
     * A query as measured: per job in chain order, {tasks, full-speed container-seconds}.
     */
    private record Measured(String name, double[][] jobs) {
        static final Measured Q03_LARGE = new Measured("q03",
                new double[][] {{11, 43.3}, {40, 186.0}, {2, 8.3}, {2, 7.2}});

        Measured named(String other) {
            return new Measured(other, jobs);
        }
    }

    private final String name;
    private final int largeTableFactor;

    /**
     * @param largeTableFactor how many times larger the large queries' tables are than measured
     *                         (5: SF 0.5 instead of 0.1): their jobs that scan (more than two tasks)
     *                         get that many times the tasks, each as long as measured
     */
    ClusterBenchMix(String name, int largeTableFactor) {
        if (largeTableFactor < 1) {
            throw new IllegalArgumentException("largeTableFactor must be >= 1, got " + largeTableFactor);
        }
        this.name = name;
        this.largeTableFactor = largeTableFactor;
    }

    @Override
    public String binsSource() {
        return "the real cluster bench's draw (Mixes.facebook) and its measured jobs"
                + (largeTableFactor == 1 ? "" : "; large queries' tables x" + largeTableFactor);
    }

    @Override
    public Workload generate(int queries, long seed, int containers, double load) {
        Arrivals.checkArguments(queries, containers, load);
        // the bench's draw, call for call: bin, query in the bin, then the gap after it
        Random random = new Random(seed);
        List<SimQuery> drawn = new ArrayList<>();
        double[] gaps = new double[queries];
        for (int i = 0; i < queries; i++) {
            double u = random.nextDouble();
            int bin = u < SHARES[0] ? 0 : u < SHARES[0] + SHARES[1] ? 1 : 2;
            Measured query = QUERIES.get(bin).get(random.nextInt(QUERIES.get(bin).size()));
            gaps[i] = -Math.log(1 - random.nextDouble());
            drawn.add(new SimQuery(String.format("q%03d", i), 0, bin, query.name(), chain(query, bin == LARGE)));
        }
        // as the bench's --gap, the arrival rate does not depend on the draw: the load is of the mix's expected work
        double meanGap = expectedWrd() / (containers * load);
        List<SimQuery> arriving = new ArrayList<>();
        double at = 0;
        for (int i = 0; i < queries; i++) {
            arriving.add(drawn.get(i).arrivingAt(Math.round(at * 1000)));
            at += gaps[i] * meanGap;
        }
        return new Workload(name, seed, BINS, arriving);
    }

    /** Container-seconds of work a query of the mix has on average: the bins' shares of their queries' mean work. */
    double expectedWrd() {
        double wrd = 0;
        for (int bin = 0; bin < SHARES.length; bin++) {
            boolean large = bin == LARGE;
            wrd += SHARES[bin] * QUERIES.get(bin).stream().mapToDouble(q -> chain(q, large).totalWrd()).average().orElse(0);
        }
        return wrd;
    }

    /** The query's jobs in a chain; Hive's plans of these queries at this scale run one reduce per job. */
    private QueryDag chain(Measured query, boolean large) {
        List<JobNode> jobs = new ArrayList<>();
        for (int j = 0; j < query.jobs().length; j++) {
            int tasks = (int) query.jobs()[j][0];
            double taskSeconds = query.jobs()[j][1] / tasks;
            if (large && tasks > 2) {
                tasks *= largeTableFactor;
            }
            int maps = Math.max(1, tasks - 1);
            List<String> parents = j == 0 ? List.of() : List.of("Stage-" + j);
            jobs.add(TpchShapes.job("Stage-" + (j + 1), parents, j == 0 ? OperatorKind.JOIN : OperatorKind.GROUP_BY,
                    j == 0 ? List.of(TpchShapes.table("tpch.lineitem", maps)) : List.of(), maps, 1,
                    new TpchShapes.TaskTimes(taskSeconds, taskSeconds)));
        }
        return new QueryDag(jobs);
    }
}
