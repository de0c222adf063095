package io.percolate.scheduler.registry;

import io.percolate.model.JobEstimate.Confidence;
import io.percolate.scheduler.registry.TaskContention.Observation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cluster's full-speed parallelism K, fitted to jobs' work ratios and the loads they ran under. */
final class TestTaskContention {
    private static final double DECAY = 0.8;

    private static List<Observation> jobs(double[] ratios, double[] loads) {
        List<Observation> jobs = new ArrayList<>();
        for (int i = 0; i < ratios.length; i++) {
            jobs.add(new Observation(ratios[i], loads[i], new EstimateKind(Confidence.LOW, false), 1));
        }
        return jobs;
    }

    @Test
    void ratiosThatGrowWithTheLoadBeyondThreeTasks_giveAParallelismOfThree() {
        double[] loads = {1, 2, 3, 4, 6, 8};
        double[] ratios = new double[loads.length];
        for (int i = 0; i < loads.length; i++) {
            ratios[i] = 1.1 * Math.max(1, loads[i] / 3);
        }
        double k = TaskContention.fit(jobs(ratios, loads), DECAY);
        assertTrue(k >= 2.85 && k <= 3.15, "K " + k);
    }

    /**
     * Throughput defaults' estimates fall a third short (ratio 1.5) and their jobs ran under loads up to 3; a
     * trained model is right at full speed and its jobs ran under loads from 3: each kind's
     * ratios follow K = 3 from a bias of its own. One bias for both would blur them.
     */
    @Test
    void estimatesOfEachKind_haveTheirOwnBias() {
        double[] loads = {1, 3, 2, 6, 3, 9};
        List<Observation> jobs = new ArrayList<>();
        for (int i = 0; i < loads.length; i++) {
            // one confidence level, timed two ways: by defaults, and by a model at full speed
            EstimateKind kind = new EstimateKind(Confidence.LOW, i % 2 != 0);
            double bias = kind.atFullSpeed() ? 1 : 1.5;
            jobs.add(new Observation(bias * Math.max(1, loads[i] / 3), loads[i], kind, 1));
        }
        double k = TaskContention.fit(jobs, DECAY);
        assertTrue(k >= 2.85 && k <= 3.15, "K " + k);
    }

    @Test
    void ratiosThatGrowInProportionToEveryLoad_takeTheLeastContentionThatExplainsThem() {
        // any K up to 2 explains r = load / 2 exactly (r₀ absorbs it): the largest is taken
        double k = TaskContention.fit(jobs(new double[]{1, 1, 1, 2, 2, 2}, new double[]{2, 2, 2, 4, 4, 4}), DECAY);
        assertTrue(k >= 1.9 && k <= 2.1, "K " + k);
    }

    @Test
    void ratiosThatDoNotFollowTheLoad_showNoContention() {
        double k = TaskContention.fit(jobs(new double[]{1.2, 0.9, 1.1, 1.0, 1.3, 0.95},
                new double[]{1, 8, 2, 6, 3, 4}), DECAY);
        assertEquals(Double.POSITIVE_INFINITY, k);
    }

    @Test
    void tooFewJobsOrOneLoad_showNoContention() {
        assertEquals(Double.POSITIVE_INFINITY, TaskContention.fit(jobs(new double[]{1, 1, 2, 2, 4},
                new double[]{1, 1, 2, 2, 4}), DECAY), "five jobs");
        assertEquals(Double.POSITIVE_INFINITY, TaskContention.fit(jobs(new double[]{1, 2, 1, 2, 1, 2},
                new double[]{4, 4, 4, 4, 4, 4}), DECAY), "every job under the same load");
    }
}
