package io.percolate.sim.adapter;

import io.percolate.model.QueryDescriptor;
import io.percolate.scheduler.input.InputReadiness;
import io.percolate.sim.cluster.ClusterSpec;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.util.Clock;

import java.util.List;

/**
 * A real YARN scheduler driven by the simulator through the ResourceManager's scheduler
 * interface, on the simulator's clock. Calls come from one thread, in simulated-time order.
 */
public interface SchedulerUnderTest extends AutoCloseable {
    /** The name the benchmark reports it under. */
    String name();

    /** Creates the scheduler on {@code clock} and registers the cluster's nodes; returns them in a fixed order. */
    List<NodeId> start(ClusterSpec cluster, Clock clock);

    /**
     * Whether it is told each query's real DAG (task times as they will run) rather than the
     * hook's estimates: only the oracle is.
     */
    default boolean perfectKnowledge() {
        return false;
    }

    /** The hook's percolation: the query's descriptor, published before its first job is submitted. */
    default void announce(QueryDescriptor descriptor) {
    }

    /** Submits a job: application and attempt added, AM container asked for. */
    ApplicationAttemptId submit(JobSubmission job);

    /** An ApplicationMaster heartbeat: sends {@code asks}, returns the containers allocated since the last one. */
    List<Container> allocate(ApplicationAttemptId attempt, List<ResourceRequest> asks);

    /** A node heartbeat reporting containers launched and completed since the last one; the scheduler may allocate. */
    void heartbeat(NodeId node, List<ContainerStatus> launched, List<ContainerStatus> completed);

    /** The job's ApplicationMaster finished: attempt and application removed, its containers released. */
    void finish(ApplicationAttemptId attempt);

    /** One run of the scheduler's periodic update (fair shares; TlsScheduler: descriptors and QEF). */
    void update();

    /**
     * The active queries in the order the scheduler will serve them, when it has such an order
     * (TLS: QEF's); empty when it orders jobs, not queries. XDFS's transfers follow it.
     */
    default List<String> queryOrder() {
        return List.of();
    }

    /**
     * Where the cache tier tells the scheduler how much of each job's input it holds, when tables
     * are on NFS behind XDFS; schedulers that do not look (Fair, Capacity) ignore it.
     */
    default void inputReadiness(InputReadiness readiness) {
    }

    /** The scheduler's view of its applications, for error messages. */
    default String describe() {
        return "";
    }

    @Override
    void close();
}
