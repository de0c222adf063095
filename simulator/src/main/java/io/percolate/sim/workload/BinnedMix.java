package io.percolate.sim.workload;

import io.percolate.model.OperatorKind;
import io.percolate.model.QueryDag;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * A trace-like mix from a {@link MixTable}: exactly the table's count of queries in each size bin
 * (for 100 queries; proportionally otherwise), in random order; each a TPC-H-shaped chain or tree
 * DAG whose task counts and task times grow with its bin; the table's share of them replaced by
 * plain single-job applications (no descriptor, no tags); Poisson arrivals at the requested load.
 * Every choice comes from the seed.
 */
final class BinnedMix implements WorkloadSource {
    /** Base task times before the bin's factor, in seconds: uniform in [min, min + spread). */
    private static final int MAP_MIN_S = 15;
    private static final int MAP_SPREAD_S = 16;
    private static final int REDUCE_MIN_S = 20;
    private static final int REDUCE_SPREAD_S = 21;

    private final MixTable table;

    BinnedMix(MixTable table) {
        this.table = table;
    }

    MixTable table() {
        return table;
    }

    @Override
    public String binsSource() {
        return table.provenance();
    }

    /** The source's mixes have 100 queries each. */
    @Override
    public int defaultQueries() {
        return 100;
    }

    @Override
    public Workload generate(int queries, long seed, int containers, double load) {
        Arrivals.checkArguments(queries, containers, load);
        SplittableRandom random = new SplittableRandom(seed);
        List<Integer> bins = shuffled(binSequence(queries), random);
        boolean[] plain = new boolean[queries];
        List<Integer> positions = shuffled(new ArrayList<>(IntStream.range(0, queries).boxed().toList()),
                random);
        positions.subList(0, table.plainCount(queries)).forEach(i -> plain[i] = true);

        List<SimQuery> drawn = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
            int bin = bins.get(i);
            SizeBin size = table.bins().get(bin);
            TpchShapes.TaskTimes times = taskTimes(size.timeScale(), random);
            String id = String.format("q%03d", i);
            drawn.add(plain[i] ? new SimQuery(id, 0, bin, "plain", plainJob(size.maps(), times), false)
                    : hiveQuery(id, bin, size.maps(), times, random.nextInt(3)));
        }
        return new Workload(table.name(), seed, table.binNames(), Arrivals.poisson(drawn, containers, load, random));
    }

    /** A job's map and reduce task times: the base times drawn from {@code random}, times {@code scale}. */
    static TpchShapes.TaskTimes taskTimes(double scale, SplittableRandom random) {
        return new TpchShapes.TaskTimes(scale * (MAP_MIN_S + random.nextInt(MAP_SPREAD_S)),
                scale * (REDUCE_MIN_S + random.nextInt(REDUCE_SPREAD_S)));
    }

    /** Bin indices, each as often as the table says for {@code queries}, in bin order. */
    private List<Integer> binSequence(int queries) {
        int[] counts = table.binCounts(queries);
        List<Integer> sequence = new ArrayList<>();
        for (int b = 0; b < counts.length; b++) {
            for (int k = 0; k < counts[b]; k++) {
                sequence.add(b);
            }
        }
        return sequence;
    }

    private static SimQuery hiveQuery(String id, int bin, int maps, TpchShapes.TaskTimes times, int shape) {
        return switch (shape) {
            case 0 -> new SimQuery(id, 0, bin, "chain2", TpchShapes.chain2(maps, times));
            case 1 -> new SimQuery(id, 0, bin, "chain3", TpchShapes.chain3(maps, times));
            default -> new SimQuery(id, 0, bin, "tree4", TpchShapes.tree4(maps, times));
        };
    }

    /** A non-Hive MapReduce job (a sort or an aggregation written by hand): maps, then reduces. */
    private static QueryDag plainJob(int maps, TpchShapes.TaskTimes times) {
        return new QueryDag(List.of(TpchShapes.job("job", List.of(), OperatorKind.GROUP_BY,
                List.of(TpchShapes.table("raw.logs", maps)), maps, TpchShapes.reducers(maps), times)));
    }

    /** Fisher–Yates on {@code list}, from {@code random}. */
    private static <T> List<T> shuffled(List<T> list, SplittableRandom random) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            T t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
        return list;
    }
}
