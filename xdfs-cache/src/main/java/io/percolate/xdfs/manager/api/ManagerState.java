package io.percolate.xdfs.manager.api;

import java.util.List;
import java.util.Map;

/**
 * The cluster's cache as the manager knows it: what {@code ./percolate xdfs state} prints.
 *
 * @param blocks cached blocks in the manager's index
 * @param bytes their bytes
 * @param capacityBytes the capacity the manager evicts to; 0 for none
 * @param bytesByNode cached bytes per DataNode (transfer address)
 * @param pendingFills blocks queued or being copied
 * @param knownVersions file versions the manager checks against the backing store
 * @param bandwidthCapMbPerSecond the cap on copies from the backing store; 0 for none
 * @param jobOrder the jobs in the order the compute scheduler serves them, as the transfers follow
 *     it; empty when they follow arrival order
 * @param hitRatio share of the block reads clients reported that cached copies served (0 before any)
 * @param jobIoRates bytes per second each job's copies are paced to: the sum of the rates its
 *     readers reported in the last minute (jobs with none reported are not listed)
 * @param counters every cache counter of the manager, by name; the {@code *_FROM_CACHE} and
 *     {@code *_FROM_BACKING} read counters are the clients' reads as they reported them
 */
public record ManagerState(int blocks, long bytes, long capacityBytes, Map<String, Long> bytesByNode, int pendingFills,
                           int knownVersions, double bandwidthCapMbPerSecond, List<String> jobOrder,
                           double hitRatio, Map<String, Double> jobIoRates, Map<String, Long> counters) {

    public ManagerState {
        bytesByNode = Map.copyOf(bytesByNode);
        jobOrder = List.copyOf(jobOrder);
        jobIoRates = Map.copyOf(jobIoRates);
        counters = Map.copyOf(counters);
    }
}
