package io.percolate.sim.cluster;

import io.percolate.sim.clock.EventQueue;
import io.percolate.sim.clock.EventQueue.Lane;
import io.percolate.sim.clock.SimClock;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Processor sharing worked by hand: a filer of 1,000 bytes a second, and a node of two cores. */
final class TestProcessorSharing {
    @Test
    void readsShareTheBandwidth_andSpeedUpWhenOthersFinish() {
        SimClock clock = new SimClock();
        EventQueue events = new EventQueue(clock);
        ProcessorSharing filer = ProcessorSharing.bandwidth(1_000, events, clock);
        Map<String, Long> done = new LinkedHashMap<>();
        long t0 = clock.getTime();
        // a: 1,000 bytes from 0 ms; b: 1,000 bytes from 500 ms; c: 100 bytes from 600 ms
        events.at(t0, Lane.ARRIVAL, () -> filer.serve(1_000, () -> done.put("a", clock.getTime() - t0)));
        events.at(t0 + 500, Lane.ARRIVAL, () -> filer.serve(1_000, () -> done.put("b", clock.getTime() - t0)));
        events.at(t0 + 600, Lane.ARRIVAL, () -> filer.serve(100, () -> done.put("c", clock.getTime() - t0)));
        while (events.runNext()) {
        }
        // a alone to 500 ms (500 left); a and b at 500/s to 600 ms (450 and 950 left); three at
        // 333/s: c's 100 bytes take 300 ms (to 900 ms; 350 and 850 left); a and b at 500/s: a ends
        // 700 ms later (1,600 ms), b has 500 left and reads them alone (2,100 ms)
        assertEquals(Map.of("c", 900L, "a", 1_600L, "b", 2_100L), done);
        assertEquals(0, filer.inProgress());
        assertEquals("c", done.keySet().iterator().next(), "the short read finishes first");
    }

    @Test
    void aLoneReadTakesItsBytesOverTheBandwidth() {
        SimClock clock = new SimClock();
        EventQueue events = new EventQueue(clock);
        ProcessorSharing filer = ProcessorSharing.bandwidth(1_000, events, clock);
        long[] end = new long[1];
        filer.serve(2_500, () -> end[0] = clock.getTime());
        while (events.runNext()) {
        }
        assertEquals(SimClock.EPOCH_MILLIS + 2_500, end[0]);
    }

    @Test
    void aBackgroundReadTakesOnlyWhatNoForegroundReadWants() {
        SimClock clock = new SimClock();
        EventQueue events = new EventQueue(clock);
        ProcessorSharing filer = ProcessorSharing.bandwidth(1_000, events, clock);
        Map<String, Long> done = new LinkedHashMap<>();
        long t0 = clock.getTime();
        // prefetch: 1,000 bytes in the background from 0 ms; a task's 500 bytes from 200 ms
        events.at(t0, Lane.ARRIVAL, () -> filer.serveInBackground(1_000, () -> done.put("prefetch", clock.getTime() - t0)));
        events.at(t0 + 200, Lane.ARRIVAL, () -> filer.serve(500, () -> done.put("task", clock.getTime() - t0)));
        while (events.runNext()) {
        }
        // the prefetch alone to 200 ms (800 left); the task alone at full speed to 700 ms; then
        // the prefetch's 800 bytes to 1,500 ms
        assertEquals(Map.of("task", 700L, "prefetch", 1_500L), done);
        assertEquals("task", done.keySet().iterator().next());
    }

    @Test
    void startsOnCores_runAtOneCoreEach_untilTheyOutnumberTheCores() {
        SimClock clock = new SimClock();
        EventQueue events = new EventQueue(clock);
        ProcessorSharing cpu = ProcessorSharing.cores(2, events, clock);
        Map<String, Long> done = new LinkedHashMap<>();
        long t0 = clock.getTime();
        // a: 1,000 CPU-ms from 0 ms; b, c and d: 1,000 each from 500 ms
        events.at(t0, Lane.ARRIVAL, () -> cpu.serve(1_000, () -> done.put("a", clock.getTime() - t0)));
        for (String later : new String[] {"b", "c", "d"}) {
            events.at(t0 + 500, Lane.ARRIVAL, () -> cpu.serve(1_000, () -> done.put(later, clock.getTime() - t0)));
        }
        while (events.runNext()) {
        }
        // a alone at one core, not two, to 500 ms (500 left); four at half a core: a ends 1,000 ms
        // later (1,500 ms), when b, c and d have 500 left; three at two thirds of a core: 750 ms more
        assertEquals(Map.of("a", 1_500L, "b", 2_250L, "c", 2_250L, "d", 2_250L), done);
        assertEquals(0, cpu.inProgress());
    }
}
