package io.percolate.bench.selectivity;

import io.percolate.bench.QError;
import io.percolate.bench.Quantile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

final class TestSelectivityReport {

    @Test
    void qError_isSymmetricAndFloorsAtOneRow() {
        assertEquals(4, QError.of(100, 25));
        assertEquals(4, QError.of(25, 100));
        assertEquals(1, QError.of(0, 0), "an empty result estimated empty is exact");
        assertEquals(10, QError.of(0.2, 10), "below one row counts as one");
    }

    @Test
    void quantiles_areNearestRank() {
        double[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, Quantile.nearestRank(sorted, 0.5));
        assertEquals(9, Quantile.nearestRank(sorted, 0.9));
        assertEquals(10, Quantile.nearestRank(sorted, 1));
        assertEquals(Double.NaN, Quantile.nearestRank(new double[0], 0.5));
    }

    @Test
    void json_reportsEachEstimatorOverallAndPerKind_forOperatorsAndJobs() {
        SelectivitySettings settings = new SelectivitySettings(0.1, List.of("01", "03"), SelectivitySettings.Runner.LOCAL, 2, Path.of("unused"));
        List<Cardinality> operators = List.of(
                new Cardinality("01", "GBY_3", "group_by", 4, 4, 8, 2),
                new Cardinality("03", "JOIN_9", "join", 1000, 500, 1000, 100),
                new Cardinality("03", "FIL_2", "filter", 100, 300, 100, 100));
        List<Cardinality> jobs = List.of(new Cardinality("03", "Stage-1", "join", 10, 40, 10, 10));
        List<Cardinality> bytes = List.of(new Cardinality("03", "Stage-1", "join", 1_000, 900, 5_000, 20_000));
        var json = new SelectivityReport(settings, operators, jobs, bytes, 1).json();
        assertEquals(3, json.get("operators").asInt());
        assertEquals(2, json.get("qerror").get("median").asDouble());  // errors 1, 2, 3
        assertEquals(3, json.get("qerror").get("max").asDouble());
        assertEquals(2, json.get("hive_qerror").get("median").asDouble()); // 2, 10, 1
        assertEquals(10, json.get("hive_qerror").get("max").asDouble());
        assertEquals(1, json.get("by_kind").get("join").get("count").asInt());
        assertEquals(2, json.get("by_kind").get("group_by").get("metastore_qerror").get("median").asDouble(), 1e-9);
        assertEquals(1, json.get("jobs").get("count").asInt());
        assertEquals(4, json.get("jobs").get("qerror").get("median").asDouble());
        assertEquals(3, json.get("operator_rows").size());
        assertEquals(20, json.get("job_output_bytes").get("hive_qerror").get("max").asDouble());
        assertEquals(1_000, json.get("job_bytes").get(0).get("true_bytes").asLong());
    }

    @Test
    void onlyFiltersJoinsAndGroupBys_areMeasured() {
        assertEquals("filter", SelectivityBench.operatorKind("FIL_16"));
        assertEquals("join", SelectivityBench.operatorKind("JOIN_8"));
        assertEquals("group_by", SelectivityBench.operatorKind("GBY_11"));
        assertEquals(null, SelectivityBench.operatorKind("FS_18"));
        assertEquals(null, SelectivityBench.operatorKind("TS_0"));
    }

    @Test
    void explain_fileSinkRowsPerStage() {
        List<String> explain = List.of(
                "STAGE DEPENDENCIES:",
                "  Stage-1 is a root stage",
                "STAGE PLANS:",
                "  Stage: Stage-1",
                "    Map Reduce",
                "      Map Operator Tree:",
                "          TableScan",
                "            Statistics: Num rows: 6001215 Data size: 1 Basic stats: COMPLETE Column stats: COMPLETE",
                "      Reduce Operator Tree:",
                "          File Output Operator",
                "            compressed: false",
                "            Statistics: Num rows: 4 Data size: 60 Basic stats: COMPLETE Column stats: COMPLETE",
                "  Stage: Stage-2",
                "    Map Reduce",
                "          File Output Operator",
                "            Statistics: Num rows: 3 Data size: 1 Basic stats: COMPLETE Column stats: NONE",
                "          File Output Operator",
                "            Statistics: Num rows: 5 Data size: 1 Basic stats: COMPLETE Column stats: NONE",
                "  Stage: Stage-3",
                "    Map Reduce",
                "          Select Operator",
                "            Statistics: Num rows: 7 Data size: 1 Basic stats: COMPLETE Column stats: COMPLETE",
                "            File Output Operator",
                "              compressed: false",
                "              table:",
                "                  serde: org.apache.hadoop.hive.serde2.lazybinary.LazyBinarySerDe",
                "",
                "  Stage: Stage-0",
                "    Fetch Operator",
                "          Statistics: Num rows: 9 Data size: 1 Basic stats: COMPLETE Column stats: NONE");
        // Stage-3's sink feeds the next stage and prints no statistics: it writes its parent's 7 rows
        assertEquals(Map.of("Stage-1", 4L, "Stage-2", 8L, "Stage-3", 7L), HiveExplain.fileSinkRows(explain));
        assertEquals(Map.of("Stage-1", 60L, "Stage-2", 2L, "Stage-3", 1L), HiveExplain.fileSinkBytes(explain));
    }

    @Test
    void settings_refuseUnknownQueriesAtOnce() {
        assertThrows(IllegalArgumentException.class, () -> SelectivitySettings.parse(List.of("--queries", "1,99")));
        assertEquals(List.of("01", "11m"), SelectivitySettings.parse(List.of("--queries", "1,11m")).queries());
    }
}
