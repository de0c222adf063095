package io.percolate.bench.simcheck;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;

import java.util.HashSet;
import java.util.Set;

/**
 * Closes a race in SLS 3.4.2's scheduler wrappers. SLS records an attempt's queue only after the
 * scheduler has handled APP_ATTEMPT_ADDED, on the scheduler's event thread, while the attempt's
 * first ask comes from the ResourceManager's dispatcher as soon as the scheduler has added it; an
 * ask that wins fails in SLS's bookkeeping (a null queue), and the attempt never runs. Our wrappers
 * report each handled event here and make an attempt's asks wait, briefly, for its addition.
 */
final class AddedAttempts {
    private static final long WAIT_MILLIS = 2_000;

    private final Set<ApplicationAttemptId> added = new HashSet<>();

    /** After SLS has handled {@code event}. */
    synchronized void handled(SchedulerEvent event) {
        if (event instanceof AppAttemptAddedSchedulerEvent e) {
            added.add(e.getApplicationAttemptId());
            notifyAll();
        } else if (event instanceof AppAttemptRemovedSchedulerEvent e) {
            added.remove(e.getApplicationAttemptID());
        }
    }

    /** Before an ask of {@code attempt} goes to SLS. */
    synchronized void await(ApplicationAttemptId attempt) {
        long until = System.currentTimeMillis() + WAIT_MILLIS;
        while (!added.contains(attempt) && System.currentTimeMillis() < until) {
            try {
                wait(Math.max(1, until - System.currentTimeMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
