package io.percolate.scheduler.registry;

import io.percolate.model.QueryDescriptor;
import io.percolate.scheduler.qef.Placement;
import org.apache.hadoop.yarn.api.records.ApplicationId;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A read-only snapshot of one query as the scheduler sees it.
 *
 * @param stages         every application of the query seen so far and the stage it runs
 * @param running        the applications not yet removed from the scheduler
 * @param finishedStages DAG stages whose application has finished
 * @param retiredAtMillis when the query left the active set; empty while active
 * @param placement      QEF's last view of the active query (WRD, T_rem, T_alone, slowdown) and
 *                       the rule that placed it; empty before its first placement and once retired
 * @param work           the descriptor's predicted work of the finished jobs against what they
 *                       used; empty without an honoured descriptor or before a job finished with tasks
 * @param forecasts      finished jobs' forecast times against what they took ({@link JobForecast})
 * @param standing       running jobs' current forecasts, seconds from when each could start, by the
 *                       stage its application's tag names; renewed at each ordering until a job's
 *                       first task, then kept
 * @param revisions      newer descriptors taken after the first: the hook's re-estimates from finished jobs
 */
public record QueryView(
        String queryId,
        String user,
        DescriptorStatus status,
        String problem,
        Optional<QueryDescriptor> descriptor,
        Map<ApplicationId, String> stages,
        Set<ApplicationId> running,
        List<String> finishedStages,
        long firstSeenMillis,
        OptionalLong retiredAtMillis,
        Optional<Placement> placement,
        Optional<WorkAccount> work,
        List<JobForecast> forecasts,
        Map<String, Double> standing,
        int revisions) {

    public QueryView {
        stages = Map.copyOf(stages);
        running = Set.copyOf(running);
        finishedStages = List.copyOf(finishedStages);
        forecasts = List.copyOf(forecasts);
        standing = Map.copyOf(standing);
    }

    /** The query's WRD from its descriptor; 0 when none is honoured. */
    public double wrd() {
        return descriptor.map(d -> d.dag().totalWrd()).orElse(0.0);
    }
}
