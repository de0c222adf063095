package io.percolate.scheduler;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The task gate's rules, apart from the scheduler ({@link TaskGate#keptBack}, {@link TaskGate#coresIdle}). */
final class TestTaskGate {
    /** Jobs in QEF's order with their tasks (held and asked for); "s" marks those yet to start. */
    private static final List<String> ORDER = List.of("lead", "second", "s-third", "running-fourth", "s-fifth");
    private static final Map<String, Long> TASKS = Map.of("lead", 2L, "second", 1L, "s-third", 4L,
            "running-fourth", 3L, "s-fifth", 5L);

    private static Set<String> kept(double budget) {
        return TaskGate.keptBack(ORDER, TASKS::get, job -> job.startsWith("s-"), budget);
    }

    @Test
    void jobsYetToStart_waitOnceTheTasksBeforeThemReachTheBudget() {
        assertEquals(Set.of("s-fifth"), kept(4), "third: 3 tasks before it; fifth: 10");
        assertEquals(Set.of("s-third", "s-fifth"), kept(3), "exactly the budget before the third keeps it");
    }

    @Test
    void runningJobs_areNeverKept() {
        assertEquals(Set.of("s-third", "s-fifth"), kept(1), "the fourth runs already and is left running");
    }

    @Test
    void theFirstJob_isAlwaysOpen() {
        assertEquals(Set.of(), TaskGate.keptBack(List.of("s-only"), j -> 100, j -> true, 0.5),
                "nothing before it, so it starts whatever the budget");
    }

    @Test
    void aBudgetBeyondEveryTask_keepsNothing() {
        assertEquals(Set.of(), kept(16));
    }

    @Test
    void aNodeRunningFewerTasksThanItsShareOfTheCores_idles() {
        // K = 2 over two equal nodes: a core each
        TaskGate.NodeLoad busy = new TaskGate.NodeLoad(1, 0.5);
        assertFalse(TaskGate.coresIdle(List.of(busy, busy), 2));
        // the leaders' three tasks packed on one node leave the other's core idle
        assertTrue(TaskGate.coresIdle(List.of(new TaskGate.NodeLoad(3, 0.5), new TaskGate.NodeLoad(0, 0.5)), 2));
        // a learned K below a core a node (1.4 over two) still counts one task a node as busy
        assertFalse(TaskGate.coresIdle(List.of(busy, busy), 1.4));
        assertFalse(TaskGate.coresIdle(List.of(), 2), "no node, nothing idles");
    }
}
