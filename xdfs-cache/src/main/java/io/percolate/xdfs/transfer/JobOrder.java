package io.percolate.xdfs.transfer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The order in which the compute scheduler will run jobs — Algorithm 2's outer loop walks jobs in
 * this order, so blocks arrive in the cache just before the tasks that read them.
 */
@FunctionalInterface
public interface JobOrder {

    /**
     * Ranks jobs that have blocks waiting, the one to be served first first.
     *
     * @param byArrival the jobs, in the order their first request arrived
     * @return the same jobs ranked; jobs left out are ranked after the listed ones, by arrival
     */
    List<String> rank(List<String> byArrival);

    /** Hadoop's default scheduler: jobs in submission order. */
    JobOrder FIFO = byArrival -> byArrival;

    /**
     * Follows a compute scheduler's current order (such as TLS's query order, flattened to jobs),
     * read anew at every pick. Jobs it does not name yet come after it, by arrival.
     */
    static JobOrder following(Supplier<List<String>> computeOrder) {
        requireNonNull(computeOrder, "computeOrder");
        return byArrival -> {
            Set<String> waiting = Set.copyOf(byArrival);
            Set<String> ranked = new LinkedHashSet<>();
            for (String job : computeOrder.get()) {
                if (waiting.contains(job)) {
                    ranked.add(job);
                }
            }
            ranked.addAll(byArrival);
            return new ArrayList<>(ranked);
        };
    }
}
