package io.percolate.scheduler.qef;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestServiceTime {

    @Test
    void job_spreadsWorkOverTheSmallerOfTasksAndContainers() {
        assertEquals(30.0, ServiceTime.job(300, 10, 20));  // 10 tasks of 30 s, all at once
        assertEquals(60.0, ServiceTime.job(300, 10, 5));   // two waves on 5 containers
        assertEquals(300.0, ServiceTime.job(300, 0, 5));    // no task count known: one at a time
        assertEquals(0.0, ServiceTime.job(0, 10, 5));
        assertEquals(0.0, ServiceTime.job(Double.NaN, 10, 5));
    }

    @Test
    void phased_runsTheReducesAfterTheMaps() {
        assertEquals(30.0, ServiceTime.phased(40, 4, 40, 2, 8));   // 4 maps of 10 s, then 2 reduces of 20 s
        assertEquals(40.0, ServiceTime.phased(40, 4, 40, 2, 2));   // two waves of maps, one of reduces
        assertEquals(10.0, ServiceTime.phased(40, 4, 0, 0, 8));    // a map-only job
    }

    @Test
    void slowdown_isProcessorSharingBeyondTheTasksRunAtFullSpeed() {
        assertEquals(1.0, ServiceTime.slowdown(3, 4));       // fewer tasks than the cluster runs at full speed
        assertEquals(2.0, ServiceTime.slowdown(8, 4));       // twice as many: each at half speed
        assertEquals(1.0, ServiceTime.slowdown(8, Double.POSITIVE_INFINITY)); // no contention known
        assertEquals(1.0, ServiceTime.slowdown(Double.NaN, 4));              // load not known
    }

    @Test
    void dag_isTheLongerOfCriticalPathAndSpreadWork() {
        assertEquals(50.0, ServiceTime.dag(50, 400, 10));   // the chain bounds it
        assertEquals(40.0, ServiceTime.dag(25, 400, 10));   // the cluster bounds it
        assertEquals(400.0, ServiceTime.dag(25, 400, 0));   // no capacity known: one container
    }
}
