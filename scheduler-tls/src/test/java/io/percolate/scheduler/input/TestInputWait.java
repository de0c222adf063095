package io.percolate.scheduler.input;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

final class TestInputWait {

    private static final ApplicationId APP = ApplicationId.newInstance(1, 1);
    /** cached share by query id; a query not listed is unknown to the tier */
    private final Map<String, Double> shares = new HashMap<>();
    private final InputWait wait = new InputWait(
            (queryId, stage) -> shares.containsKey(queryId) ? OptionalDouble.of(shares.get(queryId)) : OptionalDouble.empty(),
            0.5, Duration.ofSeconds(60));

    private static InputWait.Job job(boolean amRunning, boolean ranTask) {
        return new InputWait.Job(APP, "q", "stage-1", amRunning, ranTask);
    }

    @Test
    void aJobWhoseInputIsMostlyOnTheFiler_isPassedOverUntilEnoughIsCached() {
        shares.put("q", 0.2);
        assertTrue(wait.passOver(job(true, false), 0));
        assertEquals(1, wait.waiting());
        shares.put("q", 0.5);
        assertFalse(wait.passOver(job(true, false), 1_000), "half cached: ready");
        shares.put("q", 0.1); // evicted again: it keeps its place, no flapping
        assertFalse(wait.passOver(job(true, false), 2_000));
        assertEquals(0, wait.waiting());
    }

    @Test
    void theWaitIsBounded() {
        shares.put("q", 0.0);
        assertTrue(wait.passOver(job(true, false), 10_000));
        assertTrue(wait.passOver(job(true, false), 69_999));
        assertFalse(wait.passOver(job(true, false), 70_000), "60 s passed over: it keeps its place from now on");
        assertFalse(wait.passOver(job(true, false), 70_001));
    }

    @Test
    void neverForItsApplicationMaster_norOnceATaskRan_norWhenTheTierDoesNotKnowTheJob() {
        shares.put("q", 0.0);
        assertFalse(wait.passOver(job(false, false), 0), "its AM starts while the input is copied");
        assertFalse(wait.passOver(job(true, true), 0), "a task ran");
        assertFalse(wait.passOver(job(true, false), 0), "and it is not passed over afterwards");

        wait.forget(APP);
        shares.clear();
        assertFalse(wait.passOver(job(true, false), 0), "no report from the cache tier");
    }

    @Test
    void zeroMaxWait_turnsItOff() {
        InputWait off = new InputWait((q, s) -> OptionalDouble.of(0), 0.5, Duration.ZERO);
        assertFalse(off.passOver(job(true, false), 0));
        assertThrows(IllegalArgumentException.class, () -> new InputWait(InputReadiness.NONE, 0, Duration.ZERO));
    }
}
