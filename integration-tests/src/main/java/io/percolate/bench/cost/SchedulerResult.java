package io.percolate.bench.cost;

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
}
