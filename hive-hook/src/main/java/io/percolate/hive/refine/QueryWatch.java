package io.percolate.hive.refine;

import io.percolate.descriptor.DescriptorStore;
import io.percolate.estimate.JobShape;
import io.percolate.estimate.Lineage;
import io.percolate.estimate.ObservedOutput;
import io.percolate.estimate.OperatorTree;
import io.percolate.estimate.PredicateColumns;
import io.percolate.estimate.StatisticalEstimator;
import io.percolate.hive.extract.PlannedQuery;
import io.percolate.model.JobNode;
import io.percolate.model.QueryDag;
import io.percolate.model.Predicate;
import io.percolate.model.QueryDescriptor;
import io.percolate.stats.PastSelectivities;
import io.percolate.stats.StatisticsStore;
import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One running query whose descriptor is kept current: each time one of its MapReduce jobs
 * finishes, the job's real output re-estimates the jobs after it and the descriptor is
 * published again (design: "updated with actual sizes as jobs finish"); and what each of its
 * filters over a table scan let through, and what each of its joins and group-bys put out, is
 * remembered for the next query with the same filter, join or group-by ({@link PastSelectivities},
 * {@link Lineage}).
 * Confined to the watcher's thread; reads of Hive's task state are the tasks' own synchronized
 * methods.
 */
final class QueryWatch {
    private static final Logger LOG = LoggerFactory.getLogger(QueryWatch.class);

    private final QueryDescriptor first;
    private final PlannedQuery planned;
    private final List<ExecDriver> jobs;
    private final JobOutputs.CounterSource counters;
    private final String hiveGroup;
    private final DescriptorStore store;
    /** emptied when the store fails: one warning per query */
    private Optional<StatisticsStore> past;
    private final Clock clock;
    /** Hive task ids already looked at */
    private final Set<String> settled = new HashSet<>();
    /** DAG stages that finished */
    private final Set<String> finished = new HashSet<>();
    private final Map<String, ObservedOutput> observed = new HashMap<>();
    private final Map<String, JobNode> nodeOfTask = new HashMap<>();
    /** the DAG as last published */
    private QueryDag current;
    /** how each join's and group-by's rows are made, by operator id: worked out when the first job finished */
    private Map<String, Lineage> lineages;

    /**
     * @param first     the descriptor the hook published before the first job
     * @param jobs      the query's MapReduce tasks, conditional alternatives included
     * @param hiveGroup Hive's counter group ({@code hive.counters.group.name})
     * @param past      where the outcomes of filters, joins and group-bys are remembered; empty: they are not
     */
    QueryWatch(QueryDescriptor first, PlannedQuery planned, List<ExecDriver> jobs, JobOutputs.CounterSource counters,
               String hiveGroup, DescriptorStore store, Optional<StatisticsStore> past, Clock clock) {
        this.first = requireNonNull(first, "first");
        this.planned = requireNonNull(planned, "planned");
        this.jobs = List.copyOf(jobs);
        this.counters = requireNonNull(counters, "counters");
        this.hiveGroup = requireNonNull(hiveGroup, "hiveGroup");
        this.store = requireNonNull(store, "store");
        this.past = requireNonNull(past, "past");
        this.clock = requireNonNull(clock, "clock");
        this.current = planned.dag();
        for (JobNode node : planned.dag().jobs()) {
            nodeOfTask.put(node.stageId(), node);
            node.alternatives().forEach(a -> nodeOfTask.putIfAbsent(a, node));
        }
    }

    String queryId() {
        return first.queryId();
    }

    /**
     * Looks at the jobs that finished since the last call and republishes the descriptor if
     * their outputs change what is known about jobs still to run.
     *
     * @return whether any of the query's jobs is still to finish
     */
    boolean poll() throws IOException {
        boolean learned = false;
        Map<String, Counters> finishedCounters = new LinkedHashMap<>();
        for (ExecDriver job : jobs) {
            if (settled.contains(job.getId()) || !job.done()) {
                continue;
            }
            settled.add(job.getId());
            JobNode node = nodeOfTask.get(job.getId());
            if (node == null) {
                continue;
            }
            finished.add(node.stageId());
            Optional<Counters> jobCounters = counters.countersOf(job);
            jobCounters.ifPresent(c -> finishedCounters.put(node.stageId(), c));
            Optional<ObservedOutput> output = jobCounters.flatMap(c -> JobOutputs.of(c, hiveGroup));
            if (output.isPresent()) {
                observed.put(node.stageId(), output.get());
                learned = true;
                LOG.info("Percolate: query {} {} wrote {} rows, {} bytes (estimated {} bytes)", queryId(),
                        node.stageId(), output.get().rows(),
                        output.get().bytes().isPresent() ? output.get().bytes().getAsLong() : "?",
                        current.job(node.stageId()).orElse(node).estimate().outputBytes());
            }
        }
        boolean toCome = planned.dag().jobs().stream().anyMatch(j -> !finished.contains(j.stageId()));
        // Once every job finished the scheduler retires the query and deletes its descriptor: do not write it back.
        if (learned && toCome) {
            QueryDag refined = planned.refined(observed);
            store.publish(new QueryDescriptor(first.version(), first.queryId(), first.user(), first.queryText(),
                    clock.millis(), refined));
            current = refined;
        }
        // after the descriptor the scheduler waits for: remembering is for later queries
        finishedCounters.forEach(this::remember);
        return toCome;
    }

    /**
     * Remembers what the job's filters, joins and group-bys did (Hive counts every operator's output rows).
     * A failure is logged once and nothing more is remembered for this query: the query itself,
     * and its descriptor's refinement, are never concerned.
     */
    private void remember(String stageId, Counters jobCounters) {
        if (past.isEmpty()) {
            return;
        }
        try {
            Optional<OperatorTree> tree = planned.shapes().stream().filter(s -> s.stageId().equals(stageId)).findFirst()
                    .flatMap(JobShape::tree);
            if (tree.isEmpty()) {
                return;
            }
            Map<String, Long> rows = new HashMap<>();
            for (Counters.Counter c : jobCounters.getGroup(hiveGroup)) {
                if (c.getName().startsWith(JobOutputs.OPERATOR_ROWS)) {
                    rows.put(c.getName().substring(JobOutputs.OPERATOR_ROWS.length()), c.getValue());
                }
            }
            rememberFilters(tree.get(), rows, past.get());
            rememberShares(tree.get(), rows, past.get());
        } catch (IOException | RuntimeException e) {
            LOG.warn("Percolate: query {} could not remember its operators' outcomes: {}", queryId(), e.toString());
            past = Optional.empty();
        }
    }

    /**
     * For every filter right over a table scan, the share of the scan's rows it let through, when
     * its columns are all the table's.
     */
    private void rememberFilters(OperatorTree tree, Map<String, Long> rows, StatisticsStore store) throws IOException {
        Map<String, OperatorTree.Scan> scans = new HashMap<>();
        tree.operators().forEach(op -> {
            if (op instanceof OperatorTree.Scan scan) {
                scans.put(scan.id(), scan);
            }
        });
        for (OperatorTree.Operator op : tree.operators()) {
            OperatorTree.Scan scan = op instanceof OperatorTree.Filter f ? scans.get(f.input()) : null;
            if (scan == null) {
                continue;
            }
            long in = rows.getOrDefault(scan.id(), -1L);
            long out = rows.getOrDefault(op.id(), -1L);
            Predicate filter = PredicateColumns.overScan(((OperatorTree.Filter) op).predicate(), scan);
            Optional<String> key = PastSelectivities.keyOf(List.of(filter));
            if (in < 1 || out < 0 || out > in || key.isEmpty() || !PredicateColumns.onTable(filter, scan.table())) {
                continue;
            }
            store.remember(scan.table(), key.get(), new PastSelectivities.Observed((double) out / in, in, clock.millis()));
        }
    }

    /**
     * For every join and group-by whose lineage the estimator worked out, the rows it put out as a
     * share of its largest input's (the inputs Hive counted: a map join's hash table, built in a
     * local task, is not among them), when that share is at most 1.
     */
    private void rememberShares(OperatorTree tree, Map<String, Long> rows, StatisticsStore store) throws IOException {
        if (lineages == null) {
            lineages = planned.estimator() instanceof StatisticalEstimator statistical
                    ? statistical.outcomeLineages(planned.shapes()) : Map.of();
        }
        for (OperatorTree.Operator op : tree.operators()) {
            Lineage lineage = lineages.get(op.id());
            Optional<String> key = lineage == null ? Optional.empty() : lineage.key();
            long in = op.inputs().stream().mapToLong(i -> rows.getOrDefault(i, -1L)).max().orElse(-1);
            long out = rows.getOrDefault(op.id(), -1L);
            if (key.isEmpty() || in < 1 || out < 0 || out > in) {
                continue;
            }
            store.remember(lineage.table(), key.get(), new PastSelectivities.Observed((double) out / in, in, clock.millis()));
        }
    }
}
