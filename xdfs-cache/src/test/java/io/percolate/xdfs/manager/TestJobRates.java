package io.percolate.xdfs.manager;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A job's rate is the sum of its readers' latest rates, and a silent reader is forgotten. */
final class TestJobRates {

    @Test
    void aJobsRateSumsItsReadersLatest_andForgetsTheSilent() {
        JobRates rates = new JobRates();
        assertEquals(100, rates.report("job_1", "task-a", 100, 0));
        assertEquals(300, rates.report("job_1", "task-b", 200, 1_000));
        assertEquals(350, rates.report("job_1", "task-a", 150, 2_000), "a reader's new rate replaces its old one");
        assertEquals(50, rates.report("job_2", "task-c", 50, 2_000), "jobs apart");
        assertEquals(350, rates.report("job_1", "task-d", 0, 3_000), "an unknown rate changes nothing");
        assertEquals(350, rates.report("job_1", null, 999, 3_000), "nor does a reader that does not name itself");
        assertEquals(Map.of("job_1", 350.0, "job_2", 50.0), rates.rates(3_000));
        long later = 2_000 + JobRates.FORGET_MILLIS + 1;
        assertEquals(0, rates.report("job_1", "task-d", 0, later), "a minute of silence: the tasks finished");
        assertEquals(Map.of(), rates.rates(later));
    }
}
