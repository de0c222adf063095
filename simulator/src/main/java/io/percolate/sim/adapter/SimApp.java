package io.percolate.sim.adapter;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppImpl;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.YarnScheduler;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A ResourceManager application with its one attempt, as the scheduler reads them (tags, queue,
 * AM request, current attempt and its master container). The RM's RMAppImpl creates its attempt
 * in a state-machine transition the simulator does not run; this subclass holds the attempt
 * itself and changes nothing else.
 */
final class SimApp extends RMAppImpl {
    private final RMAppAttemptImpl attempt;

    SimApp(ApplicationAttemptId attemptId, RMContext context, Configuration conf, String user,
            ApplicationSubmissionContext submission, YarnScheduler scheduler, long submitTime, Set<String> tags,
            List<ResourceRequest> amRequests) {
        super(attemptId.getApplicationId(), context, conf, submission.getApplicationName(), user,
                submission.getQueue(), submission, scheduler, null, submitTime, submission.getApplicationType(), tags,
                amRequests);
        this.attempt = new RMAppAttemptImpl(attemptId, context, scheduler, null, submission, conf, amRequests, this);
    }

    RMAppAttemptImpl attempt() {
        return attempt;
    }

    @Override
    public RMAppAttempt getCurrentAppAttempt() {
        return attempt;
    }

    @Override
    public RMAppAttempt getRMAppAttempt(ApplicationAttemptId id) {
        return attempt.getAppAttemptId().equals(id) ? attempt : null;
    }

    @Override
    public Map<ApplicationAttemptId, RMAppAttempt> getAppAttempts() {
        return Map.of(attempt.getAppAttemptId(), attempt);
    }
}
