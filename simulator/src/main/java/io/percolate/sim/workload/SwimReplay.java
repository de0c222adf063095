package io.percolate.sim.workload;

import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A replay of the SWIM Facebook 2010 trace (UC Berkeley's SWIM project, BSD licence; the file and
 * its licence are in the simulator's resources, {@code io/percolate/sim/swim}): {@code queries} consecutive jobs of one of the
 * trace's 24 sampled hours (hour = seed mod 24), each a Hive query of one job. Sizes keep their
 * ratios, scaled to the simulated cluster: a map task per {@value #BYTES_PER_TASK} bytes of input
 * (at least one, at most {@value #MAX_MAPS}), a reduce task per as many bytes of shuffle (none for
 * a map-only job, at most {@value #MAX_REDUCES}); task times are drawn from the seed as in the
 * binned mixes. Submissions keep the trace's gaps, all stretched or shrunk by one factor so that
 * the replay offers the requested load.
 */
final class SwimReplay implements WorkloadSource {
    static final String TRACE = "FB-2010_samples_24_times_1hr_0.tsv";
    static final long BYTES_PER_TASK = 4L << 30;
    static final int MAX_MAPS = 400;
    static final int MAX_REDUCES = 100;
    private static final int HOURS = 24;
    /** Upper bounds of the input-size bins: tiny, small, medium, large; huge above. */
    private static final long[] BIN_LIMITS = {64L << 20, 1L << 30, 16L << 30, 256L << 30};
    private static final List<String> BINS = List.of("tiny", "small", "medium", "large", "huge");

    /** One job of the trace: seconds from the trace's start, and its bytes. */
    record TraceJob(String id, long submitSeconds, long inputBytes, long shuffleBytes) {
    }

    /** The trace, read when a replay is first asked for rather than whenever the simulator starts. */
    private static final class Trace {
        static final List<TraceJob> JOBS = read();
    }

    @Override
    public int defaultQueries() {
        return 100;
    }

    @Override
    public String binsSource() {
        return "SWIM FB-2010 trace (" + TRACE + "), bins by map input: < 64 MiB, < 1 GiB, < 16 GiB, < 256 GiB, more";
    }

    @Override
    public Workload generate(int queries, long seed, int containers, double load) {
        Arrivals.checkLoad(load);
        List<TraceJob> window = window(queries, (int) Math.floorMod(seed, (long) HOURS));
        SplittableRandom random = new SplittableRandom(seed);
        List<SimQuery> jobs = new ArrayList<>();
        for (TraceJob job : window) {
            jobs.add(new SimQuery("swim-" + job.id(), 0, bin(job.inputBytes()), "swim", dag(job, random)));
        }
        double work = jobs.stream().mapToDouble(q -> q.dag().totalWrd()).sum();
        long first = window.get(0).submitSeconds();
        long span = window.get(window.size() - 1).submitSeconds() - first;
        // the trace's gaps, scaled so that the work arrives at `load` of the cluster over the replay
        double stretch = span == 0 ? 0 : work / (containers * load) / span;
        List<SimQuery> arriving = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            long at = Math.round((window.get(i).submitSeconds() - first) * stretch * 1000);
            arriving.add(jobs.get(i).arrivingAt(at));
        }
        return new Workload("swim", seed, BINS, arriving);
    }

    /** The first {@code queries} jobs submitted in trace hour {@code hour}. */
    List<TraceJob> window(int queries, int hour) {
        List<TraceJob> inHour = Trace.JOBS.stream()
                .filter(j -> j.submitSeconds() >= hour * 3600L && j.submitSeconds() < (hour + 1) * 3600L)
                .limit(queries).toList();
        if (inHour.size() < queries) {
            throw new IllegalArgumentException("trace hour " + hour + " has " + inHour.size() + " jobs, fewer than "
                    + queries);
        }
        return inHour;
    }

    private static QueryDag dag(TraceJob job, SplittableRandom random) {
        int maps = tasks(job.inputBytes(), 1, MAX_MAPS);
        int reduces = tasks(job.shuffleBytes(), 0, MAX_REDUCES);
        TpchShapes.TaskTimes times = BinnedMix.taskTimes(1.0, random);
        return new QueryDag(List.of(TpchShapes.job("Stage-1", List.of(), reduces == 0 ? OperatorKind.EXTRACT
                : OperatorKind.GROUP_BY, List.of(TpchShapes.table("swim.input", maps)), maps, reduces, times)));
    }

    private static int tasks(long bytes, int min, int max) {
        long n = bytes <= 0 ? 0 : (bytes + BYTES_PER_TASK - 1) / BYTES_PER_TASK;
        return (int) Math.max(min, Math.min(max, n));
    }

    static int bin(long inputBytes) {
        for (int b = 0; b < BIN_LIMITS.length; b++) {
            if (inputBytes < BIN_LIMITS[b]) {
                return b;
            }
        }
        return BIN_LIMITS.length;
    }

    private static List<TraceJob> read() {
        try (InputStream in = SwimReplay.class.getResourceAsStream("/io/percolate/sim/swim/" + TRACE)) {
            if (in == null) {
                throw new IllegalStateException("the SWIM trace " + TRACE + " is missing from the simulator's resources");
            }
            List<TraceJob> jobs = new ArrayList<>();
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String[] f = line.split("\t");
                if (f.length >= 6) {
                    jobs.add(new TraceJob(f[0], Long.parseLong(f[1]), Long.parseLong(f[3]), Long.parseLong(f[4])));
                }
            }
            return List.copyOf(jobs);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the SWIM trace " + TRACE, e);
        }
    }
}
