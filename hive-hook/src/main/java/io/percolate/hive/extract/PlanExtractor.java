package io.percolate.hive.extract;

import io.percolate.estimate.CoarseEstimator;
import io.percolate.estimate.DagEstimator;
import io.percolate.estimate.JobShape;
import io.percolate.estimate.StatisticalEstimator;
import io.percolate.estimate.TableScan;
import io.percolate.hive.extract.TaskGraph.JobGroup;
import io.percolate.model.ColumnRef;
import io.percolate.model.JobEstimate;
import io.percolate.model.JobNode;
import io.percolate.model.Predicate;
import io.percolate.model.QueryDag;
import io.percolate.model.TableRef;
import io.percolate.selectivity.StatisticsCatalog;
import io.percolate.stats.StatisticsSettings;
import io.percolate.stats.StatisticsStore;
import io.percolate.timing.TimeModel;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.ql.QueryPlan;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.hooks.Entity;
import org.apache.hadoop.hive.ql.hooks.ReadEntity;
import org.apache.hadoop.hive.ql.metadata.Hive;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.metadata.Partition;
import org.apache.hadoop.hive.ql.metadata.Table;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A compiled Hive query plan (MapReduce engine) to a {@link QueryDag} (in a {@link PlannedQuery}): one node per job, with
 * its parents, major operator, base tables and their sizes, predicates, projections, keys and
 * first estimates. A job's parents are its nearest MapReduce ancestors in Hive's task graph
 * plus the jobs that write the intermediate files it reads.
 */
public final class PlanExtractor {
    private final TableSizer sizer;
    private final CoarseEstimator.Settings estimates;
    private final Optional<TimeModel> model;
    private final StatisticsLookup statistics;

    /**
     * @param model        the trained task-time model, if any
     * @param statistics   where Percolate's table statistics are kept, if anywhere
     * @param fromMetastore whether Hive's column statistics stand in for tables the store lacks;
     *                      when no table has statistics either way, estimates use the coarse defaults
     */
    public PlanExtractor(Configuration conf, CoarseEstimator.Settings estimates, Optional<TimeModel> model,
                         Optional<StatisticsStore> statistics, boolean fromMetastore) {
        this(conf, estimates, model, statistics, fromMetastore, Optional.empty());
    }

    /** @param past where what filters did when they ran is kept, if they are to estimate the same filters */
    public PlanExtractor(Configuration conf, CoarseEstimator.Settings estimates, Optional<TimeModel> model,
                         Optional<StatisticsStore> statistics, boolean fromMetastore, Optional<StatisticsStore> past) {
        this.sizer = new TableSizer(requireNonNull(conf, "conf"));
        this.estimates = requireNonNull(estimates, "estimates");
        this.model = requireNonNull(model, "model");
        Supplier<MetastoreStatistics> metastore = () -> {
            try {
                // the query's own session client (compiling the query made it); never a new one
                return new MetastoreStatistics(Hive.get(), StatisticsSettings.DEFAULTS.buckets());
            } catch (HiveException e) {
                throw new IllegalStateException("no metastore client", e);
            }
        };
        this.statistics = new StatisticsLookup(requireNonNull(statistics, "statistics"),
                fromMetastore ? Optional.of(metastore) : Optional.empty(), requireNonNull(past, "past"));
    }

    public PlannedQuery extract(QueryPlan plan, Set<ReadEntity> inputs) {
        return extract(plan.getRootTasks(), inputs);
    }

    PlannedQuery extract(List<Task<?>> rootTasks, Set<ReadEntity> inputs) {
        TaskGraph graph = new TaskGraph(rootTasks);
        Map<JobGroup, JobScan> scans = new LinkedHashMap<>();
        graph.groups().forEach(g -> scans.put(g, new JobScan(g.representative())));
        Map<String, List<Partition>> partitions = partitionsRead(inputs);
        Map<String, StatisticsLookup.TableRead> read = new LinkedHashMap<>();

        List<JobShape> shapes = new ArrayList<>();
        Map<String, JobDraft> drafts = new LinkedHashMap<>();
        for (Map.Entry<JobGroup, JobScan> e : scans.entrySet()) {
            JobGroup group = e.getKey();
            JobScan scan = e.getValue();
            String stage = group.representative().getId();
            List<String> parents = parentsOf(group, graph, scans);
            BaseTables base = baseTables(scan, partitions, read);
            List<Predicate> predicates = new ArrayList<>();
            Map<String, List<Predicate>> filtersByTable = new HashMap<>();
            for (JobScan.Filter f : scan.filters) {
                String table = base.tableOfAlias.getOrDefault(f.scanAlias(), "");
                Predicate p = new PredicateTranslator(base.tableOfAlias, table).translate(f.condition());
                predicates.add(p);
                filtersByTable.computeIfAbsent(table, t -> new ArrayList<>()).add(p);
            }
            long tableBytes = base.tables.stream().mapToLong(TableRef::bytes).sum();
            List<TableScan> tableScans = base.tables.stream().map(t -> new TableScan(t,
                    filtersByTable.getOrDefault(t.name(), List.of()),
                    base.projections.stream().filter(c -> c.table().equals(t.name())).map(ColumnRef::name).toList(),
                    sizer.blockBytes(t)))
                    .toList();
            shapes.add(new JobShape(stage, parents, scan.majorOperator(), tableBytes, conjuncts(predicates),
                    scan.hasReduce, scan.fixedReducers, tableScans, scan.keys,
                    filtersByTable.getOrDefault("", List.of()), scan.limit(),
                    OperatorTreeReader.read(group.representative(), base.tableOfAlias)));
            List<String> alternatives = group.alternatives().stream().map(Task::getId).toList();
            drafts.put(stage, new JobDraft(alternatives, parents, scan, base, predicates));
        }

        DagEstimator estimator = estimator(read.values());
        Map<String, JobEstimate> estimates = estimator.estimate(shapes);
        List<JobNode> jobs = new ArrayList<>();
        drafts.forEach((stage, d) -> jobs.add(new JobNode(stage, d.alternatives, d.parents, d.scan.majorOperator(),
                d.scan.operators, d.base.tables, d.predicates, d.base.projections, d.scan.keys, estimates.get(stage))));
        return new PlannedQuery(new QueryDag(jobs), shapes, estimator);
    }

    /** Statistical estimates when any table the query reads has statistics or remembered filters, else the coarse defaults. */
    private DagEstimator estimator(Collection<StatisticsLookup.TableRead> tables) {
        Optional<StatisticsCatalog> catalog = statistics.load(tables);
        return catalog.isPresent()
                ? new StatisticalEstimator(catalog.get(), StatisticsSettings.DEFAULTS, estimates, model)
                : new CoarseEstimator(estimates, model);
    }

    private record JobDraft(List<String> alternatives, List<String> parents, JobScan scan, BaseTables base,
                            List<Predicate> predicates) {
    }

    /** A job's base tables with their sizes, the columns it reads from them, and each alias's table. */
    private record BaseTables(List<TableRef> tables, List<ColumnRef> projections, Map<String, String> tableOfAlias) {
    }

    /** Number of conjuncts over all filters: what a default selectivity multiplies over. */
    private static int conjuncts(List<Predicate> predicates) {
        return predicates.stream().mapToInt(p -> p instanceof Predicate.And and ? and.terms().size() : 1).sum();
    }

    /** Nearest MapReduce ancestors in Hive's task graph, plus the writers of the intermediate files the job reads. */
    private static List<String> parentsOf(JobGroup group, TaskGraph graph, Map<JobGroup, JobScan> scans) {
        Set<String> parents = new LinkedHashSet<>();
        graph.upstream(group).forEach(g -> parents.add(g.representative().getId()));
        Set<String> reads = scans.get(group).intermediateInputs;
        scans.forEach((other, otherScan) -> {
            if (other != group && producesAny(otherScan, reads)) {
                parents.add(other.representative().getId());
            }
        });
        return List.copyOf(parents);
    }

    private BaseTables baseTables(JobScan scan, Map<String, List<Partition>> partitions,
                                  Map<String, StatisticsLookup.TableRead> read) {
        Map<String, String> tableOfAlias = new HashMap<>();
        List<TableRef> tables = new ArrayList<>();
        List<ColumnRef> projections = new ArrayList<>();
        for (Map.Entry<String, Table> t : scan.tables.entrySet()) {
            String name = t.getValue().getFullyQualifiedName().toLowerCase(Locale.ROOT);
            tableOfAlias.put(t.getKey(), name);
            scan.scanAliases.getOrDefault(t.getKey(), List.of()).forEach(a -> tableOfAlias.putIfAbsent(a, name));
            // one size look-up per table and query, however many jobs read it
            TableRef ref = read.computeIfAbsent(name, n -> {
                List<Partition> parts = partitions.getOrDefault(n, List.of());
                return new StatisticsLookup.TableRead(t.getValue(), parts, sizer.size(t.getValue(), parts));
            }).size();
            if (!tables.contains(ref)) {
                tables.add(ref);
            }
            scan.neededColumns.getOrDefault(t.getKey(), List.of()).forEach(c -> projections.add(new ColumnRef(name, c)));
        }
        return new BaseTables(tables, projections, tableOfAlias);
    }

    private static boolean producesAny(JobScan producer, Set<String> inputs) {
        for (String out : producer.outputs) {
            for (String in : inputs) {
                if (in.equals(out) || in.startsWith(out + "/") || out.startsWith(in + "/")) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Map<String, List<Partition>> partitionsRead(Set<ReadEntity> inputs) {
        Map<String, List<Partition>> byTable = new HashMap<>();
        if (inputs != null) {
            for (ReadEntity input : inputs) {
                if (input.getType() == Entity.Type.PARTITION && input.getPartition() != null) {
                    String table = input.getPartition().getTable().getFullyQualifiedName().toLowerCase(Locale.ROOT);
                    byTable.computeIfAbsent(table, k -> new ArrayList<>()).add(input.getPartition());
                }
            }
        }
        return byTable;
    }
}
