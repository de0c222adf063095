package io.percolate.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.percolate.scheduler.qef.Rule;
import io.percolate.scheduler.registry.JobForecast;
import io.percolate.scheduler.registry.JobOverheads;
import io.percolate.scheduler.registry.WorkAccount;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TestClusterReport {

    @Test
    void aStuckScheduler_isReportedWithoutFiguresOrRatios() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of()), "tls");
        BenchQuery q06 = new BenchQuery("q06", "small", "chain", "select 1");
        QefTrace ordered = new QefTrace();
        ordered.observe(TestQefTrace.order(0.5, 2, 2, 0, Rule.SWRD));
        report.add("facebook", "tls", List.of(run(q06, 30), run(q06, 50)), ordered);
        report.add("facebook", "fair", List.of(run(q06, 60), run(q06, 100)), new QefTrace());
        report.addStuck("facebook", "fair-noamlimit", "for 180 s 8 running applications held only their ApplicationMasters' containers");

        JsonNode mix = report.toJson().get("mixes").get("facebook");
        assertTrue(mix.get("tls").get("completed").asBoolean());
        assertEquals(40.0, mix.get("tls").get("mean_response_s").asDouble(), 1e-9);
        assertEquals(0.5, mix.get("tls_vs_fair").asDouble(), 1e-9);
        assertTrue(mix.get("tls").has("qef"), "TLS's mix says how QEF ordered it");
        assertFalse(mix.get("fair").has("qef"), "no ordering was seen under Fair");
        JsonNode stuck = mix.get("fair-noamlimit");
        assertFalse(stuck.get("completed").asBoolean());
        assertTrue(stuck.get("stuck").asText().contains("held only their ApplicationMasters"));
        assertFalse(stuck.has("mean_response_s"));
        assertFalse(mix.has("tls_vs_fair-noamlimit"), "no ratio against a mix that did not finish");
        assertTrue(report.summary().contains("facebook: fair-noamlimit could not finish (for 180 s"), report.summary());
    }

    @Test
    void severalRounds_arePooled_andEachRoundsMeanAndRatioIsKept() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of("--rounds", "2")), "tls");
        BenchQuery q06 = new BenchQuery("q06", "small", "chain", "select 1");
        report.add("facebook", "tls", List.of(run(q06, 30), run(q06, 50)), new QefTrace());
        report.add("facebook", "fair", List.of(run(q06, 60), run(q06, 100)), new QefTrace());
        report.add("facebook", "tls", List.of(run(q06, 60), run(q06, 80)), new QefTrace());
        report.add("facebook", "fair", List.of(run(q06, 70), run(q06, 70)), new QefTrace());

        JsonNode mix = report.toJson().get("mixes").get("facebook");
        JsonNode tls = mix.get("tls");
        assertEquals(55.0, tls.get("mean_response_s").asDouble(), 1e-9, "40 and 70 s");
        assertEquals(65.0, tls.get("makespan_s").asDouble(), 1e-9, "the rounds' mean: 50 and 80 s");
        assertEquals(Math.sqrt(450), tls.get("mean_response_sd_s").asDouble(), 1e-3);
        assertEquals(70.0, tls.get("rounds").get(1).get("mean_response_s").asDouble(), 1e-9);
        assertEquals(4, tls.get("queries").size());
        assertEquals(2, tls.get("queries").get(3).get("round").asInt());
        assertEquals(0.733, mix.get("tls_vs_fair").asDouble(), 1e-9, "55 / 75 s");
        assertEquals(0.5, mix.get("tls_vs_fair_rounds").get(0).asDouble(), 1e-9);
        assertEquals(1.0, mix.get("tls_vs_fair_rounds").get(1).asDouble(), 1e-9);
        assertTrue(report.summary().contains("tls/fair 0.73 (rounds 0.50 1.00)"), report.summary());
    }

    /**
     * Two queries over a 100 s makespan: AMs ran 40 + 30 s and jobs waited 10 + 50 s for theirs,
     * so 0.7 AMs ran and 0.6 jobs waited on average.
     */
    @Test
    void amsRunningAndJobsAwaitingTheirs_areTimeAveragesOverTheMakespan() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of()), "tls");
        BenchQuery q06 = new BenchQuery("q06", "small", "chain", "select 1");
        QueryRun first = new QueryRun(q06, "hive_a", 0, 60, 0, List.of(new JobSpan(2, 12, 52)), OptionalDouble.empty(),
                Optional.empty(), List.of(), Optional.empty(), List.of(), List.of("1"));
        QueryRun second = new QueryRun(q06, "hive_b", 10, 90, 0,
                List.of(new JobSpan(12, 62, 72), new JobSpan(75, 75, 95)), OptionalDouble.empty(), Optional.empty(),
                List.of(), Optional.empty(), List.of(), List.of("1"));
        report.add("facebook", "tls", List.of(first, second), new QefTrace());

        JsonNode tls = report.toJson().get("mixes").get("facebook").get("tls");
        assertEquals(0.7, tls.get("mean_ams_running").asDouble(), 1e-9);
        assertEquals(0.6, tls.get("mean_jobs_awaiting_am").asDouble(), 1e-9);
    }

    @Test
    void aSchedulerStuckInALaterRound_losesItsEarlierRoundsFigures() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of("--rounds", "2")), "tls");
        BenchQuery q06 = new BenchQuery("q06", "small", "chain", "select 1");
        report.add("facebook", "tls", List.of(run(q06, 30)), new QefTrace());
        report.add("facebook", "fair", List.of(run(q06, 60)), new QefTrace());
        assertFalse(report.stuck("facebook", "fair"));
        report.addStuck("facebook", "fair", "for 180 s only ApplicationMasters ran");

        assertTrue(report.stuck("facebook", "fair"));
        JsonNode mix = report.toJson().get("mixes").get("facebook");
        assertFalse(mix.get("fair").get("completed").asBoolean());
        assertFalse(mix.get("fair").has("mean_response_s"));
        assertFalse(mix.has("tls_vs_fair"), "no ratio against a mix one of whose rounds did not finish");
    }

    @Test
    void tlsMixQueries_carryTheJobOverheadsLearnedWhenTheyEnded() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of()), "tls");
        BenchQuery q06 = new BenchQuery("q06", "small", "chain", "select 1");
        QueryRun learned = new QueryRun(q06, "hive_q", 0, 40, 0, List.of(), OptionalDouble.empty(), Optional.empty(),
                List.of(), Optional.of(new JobOverheads(14.5, 6.25, 2.5)), List.of(), List.of("1"));
        report.add("facebook", "tls", List.of(learned), new QefTrace());
        report.add("facebook", "fair", List.of(run(q06, 60)), new QefTrace());

        JsonNode mix = report.toJson().get("mixes").get("facebook");
        JsonNode query = mix.get("tls").get("queries").get(0);
        assertEquals(14.5, query.get("learned_job_start_s").asDouble(), 1e-9);
        assertEquals(6.25, query.get("learned_job_end_s").asDouble(), 1e-9);
        assertEquals(2.5, query.get("learned_job_path_end_s").asDouble(), 1e-9);
        assertFalse(mix.get("fair").get("queries").get(0).has("learned_job_end_s"), "TLS alone learns them");
    }

    @Test
    void eachJobsEstimatedOutputBytes_areComparedWithWhatItWroteByQError() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of()), "tls");
        BenchQuery q13 = new BenchQuery("q13", "medium", "chain", "select 1");
        report.addAlone(List.of(new QueryRun(q13, "hive_q", 0, 100, 0, List.of(), OptionalDouble.of(90),
                Optional.empty(), List.of(), Optional.empty(), List.of(new JobBytes("Stage-1", 1_600_000, 64_000),
                new JobBytes("Stage-2", 500, 1_000), new JobBytes("Stage-3", 800, 800)), List.of("1"))));

        JsonNode prediction = report.toJson().get("prediction");
        assertEquals(3, prediction.get("job_bytes").size());
        assertEquals(25, prediction.get("job_bytes").get(0).get("q_error").asDouble(), 1e-9);
        assertEquals(2, prediction.get("job_bytes_q_error_median").asDouble(), 1e-9, "q-errors 25, 2 and 1");
        assertEquals(25, prediction.get("job_bytes_q_error_p90").asDouble(), 1e-9);
    }

    @Test
    void eachJobsForecast_isGivenWithItsTaskPhasesAndWork_andTheMeanErrorOverJobs() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of()), "tls");
        BenchQuery q13 = new BenchQuery("q13", "medium", "chain", "select 1");
        report.addAlone(List.of(new QueryRun(q13, "hive_q", 0, 100, 0, List.of(), OptionalDouble.of(90),
                Optional.empty(), List.of(
                        new JobForecast("stage-1", 60, 40, new JobForecast.Tasks(45, 28, 6, 7, 100, 1.25, 2.5, 70)),  // 50 %
                        new JobForecast("stage-2", 30, 30, new JobForecast.Tasks(20, 20, 1, 1, 10, 1,
                                Double.POSITIVE_INFINITY, 10))),                                // 0 %
                Optional.empty(), List.of(), List.of("1"))));

        JsonNode prediction = report.toJson().get("prediction");
        assertEquals(0.25, prediction.get("job_time_error_mean").asDouble(), 1e-9);
        JsonNode first = prediction.get("job_time").get(0);
        assertEquals("stage-1", first.get("stage").asText());
        assertEquals(45, first.get("predicted_tasks_s").asDouble(), 1e-9);
        assertEquals(28, first.get("measured_tasks_s").asDouble(), 1e-9);
        assertEquals(100, first.get("estimated_work_s").asDouble(), 1e-9);
        assertEquals(1.25, first.get("work_correction").asDouble(), 1e-9);
        assertEquals(70, first.get("full_speed_work_s").asDouble(), 1e-9);
        assertEquals(6, first.get("estimated_tasks").asInt());
        assertEquals(7, first.get("measured_tasks").asInt());
        assertEquals(2.5, first.get("parallelism").asDouble(), 1e-9);
        assertTrue(prediction.get("job_time").get(1).get("parallelism").isNull(), "no contention believed: no K");
    }

    @Test
    void theWorkError_isGivenAgainstCrowdedAndFullSpeedContainerSeconds() {
        ClusterReport report = new ClusterReport(ClusterSettings.parse(List.of()), "tls");
        BenchQuery q13 = new BenchQuery("q13", "medium", "chain", "select 1");
        report.add("facebook", "tls", List.of(
                withWork(q13, new WorkAccount(1, 100, 200, 100)),   // 50 % crowded, 0 % at full speed
                withWork(q13, new WorkAccount(2, 60, 100, 50))),   // 40 % and 20 %
                new QefTrace());

        JsonNode prediction = report.toJson().get("prediction");
        assertEquals(0.45, prediction.get("job_work_error_mean").asDouble(), 1e-9);
        assertEquals(0.10, prediction.get("job_work_full_speed_error_mean").asDouble(), 1e-9);
        assertEquals(2, prediction.get("job_work_error_queries").asInt());
    }

    private static QueryRun withWork(BenchQuery query, WorkAccount work) {
        return new QueryRun(query, "hive_q", 0, 50, 0, List.of(), OptionalDouble.empty(),
                Optional.of(work), List.of(), Optional.empty(), List.of(), List.of("1"));
    }

    private static QueryRun run(BenchQuery query, double responseSeconds) {
        return new QueryRun(query, "hive_q", 0, responseSeconds, 0, List.of(), OptionalDouble.empty(),
                Optional.empty(), List.of(), Optional.empty(), List.of(), List.of("1"));
    }
}
