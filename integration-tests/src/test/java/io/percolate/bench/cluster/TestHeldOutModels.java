package io.percolate.bench.cluster;

import io.percolate.hive.model.HistoricalJob;
import io.percolate.model.OperatorKind;
import io.percolate.timing.TaskPhase;
import io.percolate.timing.TaskVolume;
import io.percolate.timing.TimeModel;
import io.percolate.timing.TimeModelCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestHeldOutModels {
    private static final TaskVolume SPLIT = new TaskVolume(4e6, 30_000, 1e5, 1_000);

    @Test
    void eachQuery_isTimedByAModel_thatNeverSawItsTemplate_atAnyScale() {
        BenchQuery q03 = BenchQuery.tpch("03", "large", "chain");
        BenchQuery q03Large = q03.reading(ClusterSettings.LARGE_DATABASE, "sf0.1");
        BenchQuery q06 = BenchQuery.tpch("06", "small", "chain");
        // q03's map tasks take 40 s at both scales, q06's 10 s: each model can only know the other's
        List<HistoricalJob> history = List.of(job("a", 40, 6), job("b", 40, 20), job("c", 10, 4), job("warm-up", 99, 4));
        HeldOutModels models = HeldOutModels.fit(Map.of("a", HeldOutModels.template(q03),
                "b", HeldOutModels.template(q03Large), "c", HeldOutModels.template(q06)), history);

        assertEquals(10.0, seconds(models.model(q03)), 1e-6);
        assertEquals(10.0, seconds(models.model(q03Large)), 1e-6);
        assertEquals(40.0, seconds(models.model(q06)), 1e-6);
        assertEquals(Map.of("held_out_tasks", 26, "trained_on_tasks", 4), models.toMap().get("q03"));
        assertEquals(Map.of("held_out_tasks", 4, "trained_on_tasks", 26), models.toMap().get("q06"));
        assertTrue(models.path(q03Large).orElseThrow().endsWith("/q03.json"), models.path(q03Large).orElseThrow());
        assertEquals(Optional.empty(), HeldOutModels.NONE.path(q03));
    }

    @Test
    void aQueryAlone_inTheHistory_getsNoModel_andTheHookItsDefaults() {
        BenchQuery q06 = BenchQuery.tpch("06", "small", "chain");
        HeldOutModels models = HeldOutModels.fit(Map.of("c", HeldOutModels.template(q06)), List.of(job("c", 10, 4)));
        assertEquals(Optional.empty(), models.model(q06));
        assertEquals(Optional.empty(), models.path(q06));
        assertEquals(Map.of("held_out_tasks", 4, "trained_on_tasks", 0), models.toMap().get("q06"));
    }

    /**
     * A query whose tasks all ran under one load shows no contention alone: a model trained on it
     * keeps its crowded times. Trained at the K the whole history shows (here the other query's
     * tasks, 10 s at full speed on a cluster that runs 2 at once), it comes out at full speed too.
     */
    @Test
    void everyModel_isTrainedAtTheParallelismOfTheWholeHistory() {
        BenchQuery q18 = BenchQuery.tpch("18", "large", "tree");
        BenchQuery q06 = BenchQuery.tpch("06", "small", "chain");
        List<HistoricalJob.TaskRun> contended = new ArrayList<>();
        for (int load = 1; load <= 8; load++) {
            for (int i = 0; i < 3; i++) {
                contended.add(run(10 * Math.max(1, load / 2.0), load));
            }
        }
        List<HistoricalJob.TaskRun> crowded = List.of(run(20, 4), run(20, 4), run(20, 4), run(20, 4));
        HeldOutModels models = HeldOutModels.fit(Map.of("a", HeldOutModels.template(q18), "c", HeldOutModels.template(q06)),
                List.of(job("a", contended), job("c", crowded)));

        double k = models.model(q18).orElseThrow().parallelism();
        assertEquals(2, k, 0.1, "the K of both queries' tasks");
        assertEquals(k, models.model(q06).orElseThrow().parallelism());
        // q06's 20 s under a load of 4, at full speed: 20 / (4 / K), not 20
        assertEquals(20 / (4 / k), seconds(models.model(q18)), 1e-6);
        assertEquals(10, seconds(models.model(q06)), 0.5);
    }

    @Test
    void savedModels_readBackAsTheHookReadsThem_besideTheTasksTheyWereTrainedOn(@TempDir Path dir) throws IOException {
        BenchQuery q03 = BenchQuery.tpch("03", "large", "chain");
        BenchQuery q06 = BenchQuery.tpch("06", "small", "chain");
        HeldOutModels models = HeldOutModels.fit(Map.of("a", HeldOutModels.template(q03), "c", HeldOutModels.template(q06)),
                List.of(job("a", 40, 2), job("c", 10, 3)));

        models.save(dir);

        TimeModel q03Model = TimeModelCodec.fromJson(Files.readAllBytes(dir.resolve("q03.json")));
        assertEquals(10.0, seconds(Optional.of(q03Model)), 1e-6);
        List<String> history = Files.readAllLines(dir.resolve("history.csv"));
        assertEquals(1 + 2 + 3, history.size(), String.join("\n", history));
        assertEquals("q03,GROUP_BY,MAP,4000000.0,30000.0,100000.0,1000.0,40.0,1.0", history.get(1));
    }

    private static HistoricalJob.TaskRun run(double seconds, double load) {
        return new HistoricalJob.TaskRun(TaskPhase.MAP, SPLIT, 0, Math.round(seconds * 1000), false, load);
    }

    private static double seconds(Optional<TimeModel> model) {
        return model.orElseThrow().taskSeconds(OperatorKind.GROUP_BY, TaskPhase.MAP, SPLIT).orElseThrow();
    }

    /** A group-by job of {@code query} whose map tasks on equal splits each took {@code seconds}. */
    private static HistoricalJob job(String query, long seconds, int tasks) {
        List<HistoricalJob.TaskRun> runs = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            runs.add(new HistoricalJob.TaskRun(TaskPhase.MAP, SPLIT, 1_000L * i, 1_000L * (i + seconds), false));
        }
        return job(query, runs);
    }

    private static HistoricalJob job(String query, List<HistoricalJob.TaskRun> runs) {
        return new HistoricalJob("job_" + query, query, "Stage-1", Optional.of(OperatorKind.GROUP_BY), true,
                0, 0, runs.stream().mapToLong(HistoricalJob.TaskRun::finishMillis).max().orElse(0), runs);
    }
}
