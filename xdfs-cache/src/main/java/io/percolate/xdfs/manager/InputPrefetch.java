package io.percolate.xdfs.manager;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.descriptor.MalformedDescriptorException;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.model.TableRef;
import io.percolate.xdfs.config.XdfsConfig;
import io.percolate.xdfs.manager.api.InputReadinessReport;
import io.percolate.xdfs.manager.api.WarmResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Fetches jobs' inputs before the jobs read them, even before they are submitted: for the first
 * queries in TlsScheduler's order, every unfinished job's input tables (the locations the hook put
 * in the query's descriptor) that live on xdfs are queued for copying, as that job, so the transfer
 * scheduler serves them in the compute scheduler's order under the cap. MixApart saw only submitted
 * jobs; the descriptor shows the whole DAG when the query starts.
 *
 * <p>The same inputs are pinned for their jobs (holder: the job's transfer name), so the cache
 * keeps what running and next jobs will read — neither evicted nor, if the file changes, removed
 * before the job is done — and released once the job leaves the order (finished, or its query
 * fell behind the first few).
 *
 * <p>What it finds, how much of each job's input is cached, is what the compute scheduler reads
 * ({@link #readiness}) to pass over a job whose input is still on the filer (MixApart's Algorithm 1).
 *
 * <p>Runs on the manager's chore thread after each read of the order. Descriptors are read once per
 * query, and used only if written by the user the query runs as; a query without one (or with no
 * xdfs inputs) is skipped.
 */
final class InputPrefetch {

    private static final Logger LOG = LoggerFactory.getLogger(InputPrefetch.class);

    private final CacheService service;
    private final DescriptorStore descriptors;
    private final int queries;
    /** DAGs of the active queries, by query id; empty when there is no usable descriptor */
    private final Map<String, Optional<QueryDag>> dags = new HashMap<>();
    /** per active query, the input paths found wholly cached, with their blocks: not listed again */
    private final Map<String, Map<String, Integer>> done = new HashMap<>();
    /** per pin holder (a job's transfer name), the input paths pinned for it */
    private final Map<String, Set<String>> pinned = new HashMap<>();
    /** written by the chore thread, read by the HTTP threads */
    private volatile InputReadinessReport readiness = new InputReadinessReport(List.of());

    /** @param queries how many queries, from the head of the order, are prefetched for */
    InputPrefetch(CacheService service, DescriptorStore descriptors, int queries) {
        this.service = requireNonNull(service, "service");
        this.descriptors = requireNonNull(descriptors, "descriptors");
        this.queries = queries;
    }

    void run(List<SchedulerOrder.Stage> plan) {
        Set<String> active = new LinkedHashSet<>();
        plan.forEach(stage -> active.add(stage.queryId()));
        dags.keySet().retainAll(active);
        done.keySet().retainAll(active);
        Set<String> served = Set.copyOf(active.stream().limit(queries).toList());
        Set<String> holders = new HashSet<>();
        List<InputReadinessReport.JobInput> inputs = new ArrayList<>();
        for (SchedulerOrder.Stage stage : plan) {
            if (!served.contains(stage.queryId())) {
                continue;
            }
            holders.add(stage.transferJob());
            Optional<JobNode> job = dag(stage).flatMap(d -> d.job(stage.stage()));
            int blocks = 0;
            int cached = 0;
            for (TableRef table : job.map(JobNode::inputTables).orElse(List.of())) {
                for (String location : table.locations()) {
                    Optional<String> path = xdfsPath(location);
                    if (path.isEmpty()) {
                        continue;
                    }
                    pin(path.get(), stage.transferJob());
                    Optional<WarmResult> found = queue(path.get(), stage);
                    blocks += found.map(WarmResult::blocks).orElse(0);
                    cached += found.map(WarmResult::cached).orElse(0);
                }
            }
            if (blocks > 0) {
                inputs.add(new InputReadinessReport.JobInput(stage.queryId(), stage.stage(), blocks, cached));
            }
        }
        readiness = new InputReadinessReport(inputs);
        for (String holder : List.copyOf(pinned.keySet())) {
            if (!holders.contains(holder)) {
                service.release(holder);
                pinned.remove(holder);
            }
        }
    }

    /** How much of each served job's xdfs input was cached at the last {@link #run}. */
    InputReadinessReport readiness() {
        return readiness;
    }

    /** Pins the current version of {@code path}'s files for {@code holder}, once. */
    private void pin(String path, String holder) {
        Set<String> paths = pinned.computeIfAbsent(holder, h -> new HashSet<>());
        if (paths.contains(path)) {
            return;
        }
        try {
            service.pin(holder, path);
            paths.add(path);
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("Could not pin {} for {}: {}", path, holder, e.toString());
        }
    }

    /** Queues the uncached blocks of {@code path} for {@code stage}; what it found, empty if it could not look. */
    private Optional<WarmResult> queue(String path, SchedulerOrder.Stage stage) {
        Map<String, Integer> cached = done.computeIfAbsent(stage.queryId(), q -> new HashMap<>());
        Integer blocks = cached.get(path);
        if (blocks != null) {
            return Optional.of(new WarmResult(0, blocks, blocks, 0, 0)); // pinned for the job, so still cached
        }
        try {
            WarmResult result = service.queue(path, stage.transferJob());
            if (result.cached() == result.blocks()) {
                cached.put(path, result.blocks());
            }
            return Optional.of(result);
        } catch (FileNotFoundException e) {
            LOG.debug("Input {} of {} is gone: {}", path, stage, e.toString());
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("Could not prefetch {} for {}: {}", path, stage, e.toString());
        }
        return Optional.empty();
    }

    /**
     * The query's DAG, read once. A descriptor not published yet is asked for again next time; one
     * that is unreadable, or written by another user than the one the scheduler runs the query as,
     * is never used (as TlsScheduler honours a descriptor only for its owner's applications).
     */
    private Optional<QueryDag> dag(SchedulerOrder.Stage stage) {
        String queryId = stage.queryId();
        if (dags.containsKey(queryId)) {
            return dags.get(queryId);
        }
        Optional<QueryDag> dag;
        try {
            DescriptorStore.Stored stored = descriptors.read(queryId);
            if (!stored.owner().equals(stage.user())) {
                LOG.warn("Not prefetching for query {}: its descriptor belongs to {}, the query runs as {}", queryId,
                        stored.owner(), stage.user());
                dag = Optional.empty();
            } else {
                dag = Optional.of(stored.descriptor().dag());
            }
        } catch (FileNotFoundException e) {
            return Optional.empty(); // not published yet, or a query run without the hook
        } catch (IOException | MalformedDescriptorException | RuntimeException e) {
            LOG.warn("Cannot prefetch for query {}: its descriptor is unreadable: {}", queryId, e.toString());
            dag = Optional.empty();
        }
        dags.put(queryId, dag);
        return dag;
    }

    /** The path of an {@code xdfs://} location; empty for any other file system (HDFS needs no prefetch). */
    static Optional<String> xdfsPath(String location) {
        try {
            URI uri = new URI(location);
            return XdfsConfig.SCHEME.equalsIgnoreCase(uri.getScheme()) && uri.getPath() != null
                    ? Optional.of(uri.getPath()) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
