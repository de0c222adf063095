package io.percolate.bench.simcheck;

import io.percolate.it.cluster.MiniPercolateCluster;
import io.percolate.sim.cluster.ClusterSpec;
import io.percolate.sim.report.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator check's pieces (issue 5, item 4): the SYNTH trace read back as SLS draws it, a
 * real SLS run of TLS at the trace's submission times, the jobs as SleepJobs on a real TLS
 * mini-cluster, and the rank correlation it reports. The full three-host comparison is
 * {@code ./percolate bench simcheck}.
 */
final class TestSimcheck {
    private static final List<SynthMix.JobClass> TINY = List.of(new SynthMix.JobClass("tiny", 1.0, 2, 1_000, 1, 1_000));

    @TempDir
    Path dir;

    @Test
    void trace_drawsJobsOfItsClassesInTheWindow_sameSeedSameJobs() throws Exception {
        SimcheckSettings settings = settings(12, 1, 60);
        List<MixJob> jobs = draw(settings, SynthMix.CLASSES, "a.json");

        assertEquals(12, jobs.size());
        assertEquals(jobs.stream().sorted(Comparator.comparingLong(MixJob::submitMillis)).toList(), jobs);
        for (MixJob j : jobs) {
            assertTrue(j.submitMillis() >= 0 && j.submitMillis() < 60_000, j.toString());
            SynthMix.JobClass c = SynthMix.CLASSES.stream().filter(k -> k.name().equals(j.jobClass())).findFirst()
                    .orElseThrow();
            assertEquals(List.of(c.maps(), c.mapMillis(), c.reduces(), c.reduceMillis()),
                    List.of(j.maps(), j.mapMillis(), j.reduces(), j.reduceMillis()), j.toString());
        }
        assertTrue(SynthMix.classesOf(jobs).size() > 1, "a mix, not one class: " + jobs);
        assertEquals(jobs, draw(settings, SynthMix.CLASSES, "b.json"));
        assertNotEquals(jobs, draw(settings(12, 2, 60), SynthMix.CLASSES, "c.json"));
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void sls_runsTlsOnItsJobs_atTheirSubmissionTimes() throws Exception {
        SimcheckSettings settings = settings(3, 3, 8);
        Path trace = dir.resolve("trace.json");
        SynthMix.write(settings, TINY, trace);
        List<MixJob> jobs = SynthMix.jobs(trace);
        long spread = jobs.get(2).submitMillis() - jobs.get(0).submitMillis();
        assertTrue(spread >= 3_000, "the seed spreads the submissions: " + jobs);

        // the real nodes' shape, as the bench gives SLS
        ClusterSpec node = ClusterSpec.of(1, 4).withVcores(MiniPercolateCluster.NODE_VCORES);
        Map<String, Double> response = new SlsHost(node, trace, dir.resolve("sls")).run("tls", jobs);

        assertEquals(jobs.stream().map(MixJob::id).toList(), List.copyOf(response.keySet()));
        // a job takes at least its map and its reduce, one after the other; alone on the node, not much more
        response.values().forEach(r -> assertTrue(r >= 2.0 && r < 30, "response " + r + " s: " + response));
        // SLS started the applications as far apart as the trace submits them (3.4.2 alone starts all at once)
        List<String> apps = Files.readAllLines(dir.resolve("sls").resolve("tls").resolve(SlsMain.APPS));
        List<Long> starts = apps.subList(1, apps.size()).stream().map(l -> Long.parseLong(l.split(",")[3])).sorted().toList();
        long started = starts.get(starts.size() - 1) - starts.get(0);
        assertTrue(Math.abs(started - spread) < 1_500, "started " + started + " ms apart, submitted " + spread);
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void cluster_runsEachJobAsASleepJob_underTls() throws Exception {
        SimcheckSettings settings = settings(2, 3, 4);
        Path trace = dir.resolve("trace.json");
        SynthMix.write(settings, TINY, trace);
        List<MixJob> jobs = SynthMix.jobs(trace);

        ClusterHost host = new ClusterHost(1, 4, dir.resolve("cluster"));
        Map<String, Double> response = host.run("tls", jobs);

        assertEquals(jobs.stream().map(MixJob::id).toList(), List.copyOf(response.keySet()));
        // its map and its reduce one after the other, plus an ApplicationMaster and task JVMs starting
        response.values().forEach(r -> assertTrue(r > 2.0 && r < 120, "response " + r + " s: " + response));

        // what they paid besides their work, read back from their history: per job an AM start, a
        // job end and an AM exit, per task (two maps, one reduce) a start; JVMs take time to start
        MeasuredStartup costs = host.measured();
        assertEquals(List.of("tls"), costs.schedulers());
        assertEquals(2, costs.of(MeasuredStartup.Cost.AM_START).seconds().size());
        assertEquals(6, costs.of(MeasuredStartup.Cost.TASK_START, "tls").seconds().size());
        assertEquals(2, costs.of(MeasuredStartup.Cost.JOB_END).seconds().size());
        assertEquals(2, costs.of(MeasuredStartup.Cost.AM_EXIT).seconds().size());
        costs.of(MeasuredStartup.Cost.AM_START).seconds().forEach(s -> assertTrue(s > 0.2 && s < 60, "AM start " + s + " s"));
        costs.of(MeasuredStartup.Cost.TASK_START).seconds().forEach(s -> assertTrue(s > 0.2 && s < 60, "task start " + s + " s"));
        costs.of(MeasuredStartup.Cost.JOB_END).seconds().forEach(s -> assertTrue(s >= 0 && s < 60, "job end " + s + " s"));
        costs.of(MeasuredStartup.Cost.AM_EXIT).seconds().forEach(s -> assertTrue(s >= 0 && s < 60, "AM exit " + s + " s"));
        double meanResponse = response.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        assertTrue(costs.of(MeasuredStartup.Cost.AM_START).mean() + costs.of(MeasuredStartup.Cost.TASK_START).mean() * 2
                < meanResponse, "the costs are part of each response, not more: " + meanResponse);
    }

    @Test
    void givenCosts_runTheSimulatorOnceMore_calibrated() throws Exception {
        SimcheckSettings settings = SimcheckSettings.parse(List.of("--jobs", "6", "--hosts", "simulator",
                "--costs", "8,4,0.1,1", "--start-cores", "1", "--out", dir.toString()));
        Path trace = dir.resolve("trace.json");
        SynthMix.write(settings, SynthMix.CLASSES, trace);
        List<MixJob> jobs = SynthMix.jobs(trace);

        SimcheckBench.Runs runs = SimcheckBench.run(settings, trace, jobs, new ClusterHost(1, 4, dir.resolve("unused")));
        List<SimcheckReport.HostResult> hosts = runs.hosts();

        assertEquals(List.of("simulator", SimcheckBench.CALIBRATED, SimcheckBench.SHARED),
                hosts.stream().map(SimcheckReport.HostResult::host).toList());
        for (String scheduler : SimcheckSettings.SCHEDULERS) {
            // each job takes at least its AM start, a map and a reduce with their starts
            for (MixJob j : jobs) {
                double floor = 8 + (j.mapMillis() + j.reduceMillis()) / 1000.0 + 2 * 4;
                assertTrue(hosts.get(1).responses().get(scheduler).get(j.id()) >= floor, j.toString());
            }
            assertTrue(hosts.get(1).mean(scheduler) > hosts.get(0).mean(scheduler) + 8 + 2 * 4, scheduler);
        }
        var json = new SimcheckReport(settings, jobs, runs, new MeasuredStartup()).json();
        assertEquals("given", json.at("/calibration/used/source").asText());
        assertEquals(4.0, json.at("/calibration/used/task_start_s").asDouble());
        assertTrue(json.at("/calibration/measured").isMissingNode());

        // the shared-cores fit: its mean starts over the schedulers come to the given ones, from less
        // CPU work per start, as starts that overlap take longer than their work
        StartFit fit = runs.shared().orElseThrow();
        double am = fit.simulated().values().stream().mapToDouble(RunResult.Starts::meanAmStartSeconds).average().orElseThrow();
        double task = fit.simulated().values().stream().mapToDouble(RunResult.Starts::meanTaskStartSeconds).average()
                .orElseThrow();
        assertEquals(8, am, 0.08 + 1e-9, "fit kept from pass " + fit.round());
        assertEquals(4, task, 0.04 + 1e-9, "fit kept from pass " + fit.round());
        assertTrue(fit.costs().taskStartMillis() < 4000, fit.toString());
        assertEquals(1.0, json.at("/calibration/shared_cores/cores_per_node").asDouble());
        assertEquals(fit.costs().taskStartMillis() / 1000.0, json.at("/calibration/shared_cores/task_start_cpu_s").asDouble());
        // each calibrated simulator's ratios over the costs around its own: 25 runs, a spread
        for (String at : List.of("/calibration/used/neighbourhood", "/calibration/shared_cores/neighbourhood")) {
            assertEquals(25, json.at(at + "/runs").asInt(), at);
            double mean = json.at(at + "/tls_vs_capacity_mean").asDouble();
            assertTrue(mean > 0.3 && mean < 3, at + " " + mean);
            assertTrue(json.at(at + "/tls_vs_capacity_sd").asDouble() >= 0, at);
        }
    }

    @Test
    void crowding_countsTheStartsInFlight_andTheCpuWorkTheyImply() {
        MeasuredStartup m = new MeasuredStartup();
        // under tls: two tasks starting together for 10 s, an AM alone for 4 s afterwards; a third
        // task overlapping the first two for half of its 10 s; under fair: a task alone
        m.add(MeasuredStartup.Cost.TASK_START, "tls", 0, 10_000);
        m.add(MeasuredStartup.Cost.TASK_START, "tls", 0, 10_000);
        m.add(MeasuredStartup.Cost.TASK_START, "tls", 5_000, 10_000);
        m.add(MeasuredStartup.Cost.AM_START, "tls", 20_000, 4_000);
        m.add(MeasuredStartup.Cost.TASK_START, "fair", 0, 6_000);

        // the first two: 3 in flight half the time, 2 the other half (2.5); the third: 3, then 1 (2)
        MeasuredStartup.Crowding tasks = m.crowding(MeasuredStartup.Cost.TASK_START, "tls", 1);
        assertEquals((2.5 + 2.5 + 2) / 3, tasks.meanInFlight(), 1e-9);
        // on one core a start's work is its time over its crowd: 10 / 2.5, 10 / 2.5, 10 / 2
        assertEquals((4 + 4 + 5) / 3.0, tasks.impliedCpuSeconds(), 1e-9);
        // on four cores no start waited for a core
        assertEquals(10, m.crowding(MeasuredStartup.Cost.TASK_START, "tls", 4).impliedCpuSeconds(), 1e-9);
        assertEquals(new MeasuredStartup.Crowding(1, 4), m.crowding(MeasuredStartup.Cost.AM_START, "tls", 1));
        assertEquals(new MeasuredStartup.Crowding(1, 6), m.crowding(MeasuredStartup.Cost.TASK_START, "fair", 1));
    }

    @Test
    void rankCorrelation_ordersAndTies() {
        assertEquals(1.0, SimcheckReport.Spearman.correlation(List.of(1.0, 5.0, 9.0), List.of(10.0, 20.0, 90.0)), 1e-9);
        assertEquals(-1.0, SimcheckReport.Spearman.correlation(List.of(1.0, 5.0, 9.0), List.of(3.0, 2.0, 1.0)), 1e-9);
        // ties share their mean rank: x ranks 1.5, 1.5, 3 against 1, 2, 3
        assertEquals(Math.sqrt(0.75), SimcheckReport.Spearman.correlation(List.of(4.0, 4.0, 7.0),
                List.of(1.0, 2.0, 3.0)), 1e-9);
    }

    private SimcheckSettings settings(int jobs, long seed, int window) {
        return new SimcheckSettings(jobs, seed, window, 1, 4, SimcheckSettings.SCHEDULERS, List.of("sls"), dir);
    }

    private List<MixJob> draw(SimcheckSettings settings, List<SynthMix.JobClass> classes, String name) throws Exception {
        Path trace = dir.resolve(name);
        SynthMix.write(settings, classes, trace);
        return SynthMix.jobs(trace);
    }
}
