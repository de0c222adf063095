package io.percolate.it.tpch;

import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.JobShape;
import io.percolate.estimate.OperatorTree;
import io.percolate.hive.extract.PlanExtractor;
import io.percolate.it.cluster.EmbeddedHive;
import io.percolate.selectivity.AggregateFunction;
import io.trino.tpch.TpchTable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every TPC-H query file compiles on Hive 4's MapReduce engine, and the hook reads every job's
 * operators: through the same embedded Hive the benchmarks use, over the TPC-H tables declared on
 * the local file system (no cluster: compiling needs only the metastore). Running them is the
 * cluster benchmark's job.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class TestTpchQueryFiles {
    private EmbeddedHive hive;

    @BeforeAll
    void declareTables() throws Exception {
        java.nio.file.Path work = java.nio.file.Path.of("target", "tpch-query-files").toAbsolutePath();
        FileUtil.fullyDelete(work.toFile());
        hive = EmbeddedHive.onLocalFiles(work);
        TpchDataset data = new TpchDataset(0.001, List.copyOf(TpchTable.getTables()));
        hive.run(data.ddl(new Path(work.resolve("data").toUri())).toArray(String[]::new));
    }

    static List<String> ids() {
        return TpchQueries.TPCH_IDS;
    }

    @ParameterizedTest
    @MethodSource("ids")
    void compilesToMapReduceJobs(String id) throws Exception {
        List<String> plan = hive.run("EXPLAIN " + TpchQueries.tpch(id).sql()).rows();
        assertTrue(plan.stream().anyMatch(line -> line.contains("Map Reduce")),
                "q" + id + " has no MapReduce stage:\n" + String.join("\n", plan));
    }

    @ParameterizedTest
    @MethodSource("ids")
    void everyJob_isReadOperatorByOperator_withShuffleJoinsAndWithMapJoins(String id) throws Exception {
        // the estimator follows each job's filters, joins and group-bys only when the hook could read them all;
        // Hive's default turns small joins into map joins, whose small tables a local task hashes
        for (String mapJoins : List.of("false", "true")) {
            List<String> whole = hive.compiled(TpchQueries.tpch(id).sql(), Map.of("hive.auto.convert.join", mapJoins),
                    plan -> new PlanExtractor(new Configuration(), CoarseEstimator.Settings.DEFAULTS, Optional.empty(), Optional.empty(), false)
                            .extract(plan, plan.getInputs()).shapes().stream()
                            .filter(job -> job.tree().isEmpty()).map(JobShape::stageId).toList());
            assertEquals(List.of(), whole, "q" + id + " (map joins " + mapJoins + "): jobs estimated as a whole");
        }
    }

    @org.junit.jupiter.api.Test
    void havingClauses_keepTheAggregatesTheyFilter() throws Exception {
        // Q18's HAVING sum(l_quantity) > 300 and Q21's count(DISTINCT l_suppkey) = 1, as the
        // reduce-side group-bys that merge the map side's partial aggregates read them
        for (var expected : Map.of("18", AggregateFunction.SUM, "21", AggregateFunction.COUNT).entrySet()) {
            List<OperatorTree.Aggregation> finals = hive.compiled(TpchQueries.tpch(expected.getKey()).sql(), Map.of(),
                    plan -> new PlanExtractor(new Configuration(), CoarseEstimator.Settings.DEFAULTS, Optional.empty(), Optional.empty(), false)
                            .extract(plan, plan.getInputs()).shapes().stream()
                            .flatMap(job -> job.tree().stream()).flatMap(tree -> tree.operators().stream())
                            .filter(op -> op instanceof OperatorTree.Aggregate a && !a.partial())
                            .flatMap(op -> ((OperatorTree.Aggregate) op).aggregations().values().stream()).toList());
            boolean distinct = expected.getValue() == AggregateFunction.COUNT;
            assertTrue(finals.stream().anyMatch(a -> a.function() == expected.getValue() && a.distinct() == distinct
                    && a.column().isPresent()), "q" + expected.getKey() + ": " + finals);
        }
    }

    @org.junit.jupiter.api.Test
    void unknownQuery_isRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TpchQueries.tpch("23"));
        assertTrue(e.getMessage().contains("23"), e.getMessage());
    }
}
