package io.percolate.scheduler.lodfa;

import io.percolate.model.JobNode;
import io.percolate.model.TableRef;
import org.apache.hadoop.yarn.api.records.NodeId;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * LoDFA's memory-locality hint (dissertation 5.3, Algorithm 3, line 8): the largest input table
 * of the job whose container last finished on each node. When that node is offered next, a job
 * reading the same table is preferred, since its blocks are likely still in the node's page
 * cache. One entry per node, so the history stays as small as the cluster.
 */
public final class NodeHistory {
    private static final Comparator<TableRef> BY_SIZE = Comparator.comparingLong(TableRef::bytes)
            .thenComparing(TableRef::name);

    private final Map<NodeId, String> lastTable = new HashMap<>();

    /** A container of a job reading {@code largestTable} (empty: unknown) finished on {@code node}. */
    public void containerFinished(NodeId node, Optional<String> largestTable) {
        if (largestTable.isPresent()) {
            lastTable.put(node, largestTable.get());
        } else {
            lastTable.remove(node);
        }
    }

    /** The table the node's last finished container read, if known. */
    public Optional<String> lastTable(NodeId node) {
        return node == null ? Optional.empty() : Optional.ofNullable(lastTable.get(node));
    }

    public void removed(NodeId node) {
        lastTable.remove(node);
    }

    /** The job's largest base table (ties by name), the one Algorithm 3 matches jobs on. */
    public static Optional<String> largestInput(JobNode job) {
        return job.inputTables().stream().max(BY_SIZE).map(TableRef::name);
    }
}
