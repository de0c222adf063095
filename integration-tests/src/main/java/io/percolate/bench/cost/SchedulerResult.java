package io.percolate.bench.cost;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import static io.percolate.bench.cost.Latency.mean;

/**
 * What one scheduler did in the benchmark.
 *
 * @param heartbeat      the timed node heartbeats ({@code scheduler.handle(NodeUpdateSchedulerEvent)}), wall clock
 * @param heartbeatCpu   the same heartbeats as CPU time of the scheduling thread
 * @param warmupHeartbeat the warm-up heartbeats, timed the same way (not part of the comparison)
 * @param sort           ordering the queues' demanding applications by their policy, alone ({@link SortProbe}),
 *                       after every tenth timed heartbeat
 * @param update         the scheduler's {@code update()} calls during the timed heartbeats
 *                       (fair shares, demand; for TlsScheduler also applying descriptors)
 * @param containers     containers allocated during the timed heartbeats
 * @param completions    containers completed between the timed heartbeats (a full node's oldest)
 * @param fillAtStart    running containers over the cluster's capacity when the timed heartbeats began
 * @param appsServed     distinct applications that received a container during warm-up or timing
 * @param queriesServed  distinct queries among them
 * @param setupSeconds   starting the RM, registering nodes, submitting applications, loading descriptors
 * @param warmupSeconds  the warm-up heartbeats with the untimed bookkeeping between them
 * @param runSeconds     warm-up and timed heartbeats, with the untimed bookkeeping between them
 */
record SchedulerResult(String key, Latency heartbeat, Latency heartbeatCpu, Latency warmupHeartbeat, Latency sort, Latency update,
                       int containers, int completions, double fillAtStart, int appsServed, int queriesServed,
                       double setupSeconds, double warmupSeconds, double runSeconds) {

    /** Runs of one scheduler (in JVMs of their own) as one result: every figure their mean ({@link Latency#meanOf}). */
    static SchedulerResult meanOf(List<SchedulerResult> runs) {
        if (runs.isEmpty() || runs.stream().map(SchedulerResult::key).distinct().count() != 1) {
            throw new IllegalArgumentException("runs of one scheduler expected, got " + runs);
        }
        return new SchedulerResult(runs.get(0).key(), latency(runs, SchedulerResult::heartbeat),
                latency(runs, SchedulerResult::heartbeatCpu), latency(runs, SchedulerResult::warmupHeartbeat),
                latency(runs, SchedulerResult::sort), latency(runs, SchedulerResult::update),
                count(runs, SchedulerResult::containers), count(runs, SchedulerResult::completions),
                mean(runs, SchedulerResult::fillAtStart), count(runs, SchedulerResult::appsServed),
                count(runs, SchedulerResult::queriesServed), mean(runs, SchedulerResult::setupSeconds),
                mean(runs, SchedulerResult::warmupSeconds), mean(runs, SchedulerResult::runSeconds));
    }

    private static Latency latency(List<SchedulerResult> runs, Function<SchedulerResult, Latency> which) {
        return Latency.meanOf(runs.stream().map(which).toList());
    }

    private static int count(List<SchedulerResult> runs, ToDoubleFunction<SchedulerResult> value) {
        return (int) Math.round(mean(runs, value));
    }
}
