package io.percolate.hive.extract;

import io.percolate.estimate.JobShape;
import io.percolate.model.OperatorKind;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.apache.hadoop.hive.ql.exec.mr.MapredLocalTask;
import org.apache.hadoop.hive.ql.metadata.Table;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.FileSinkDesc;
import org.apache.hadoop.hive.ql.plan.FilterDesc;
import org.apache.hadoop.hive.ql.plan.LimitDesc;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.MapredLocalWork;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc;
import org.apache.hadoop.hive.ql.plan.ReduceWork;
import org.apache.hadoop.hive.ql.plan.TableScanDesc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What one MapReduce job does, read off its map-side and reduce-side operator trees: the
 * operators, the base tables it scans (and their needed columns), the intermediate paths it
 * reads and writes, its filters and its shuffle keys.
 */
final class JobScan {
    final List<String> operators = new ArrayList<>();
    /** table-scan alias → the table it reads, for base-table inputs only */
    final Map<String, Table> tables = new LinkedHashMap<>();
    final Map<String, List<String>> neededColumns = new LinkedHashMap<>();
    /** map-work alias → the other names the plan uses for that scan (its own alias, the table name) */
    final Map<String, List<String>> scanAliases = new LinkedHashMap<>();
    final Set<String> intermediateInputs = new LinkedHashSet<>();
    final Set<String> outputs = new LinkedHashSet<>();
    final List<Filter> filters = new ArrayList<>();
    final List<String> keys = new ArrayList<>();
    final boolean hasReduce;
    final int fixedReducers;
    private long mapLimit = JobShape.NO_LIMIT;
    private long reduceLimit = JobShape.NO_LIMIT;
    private boolean join;
    private boolean groupBy;

    /**
     * A filter condition and the alias of the table scan it sits above on the map side (empty
     * on the reduce side): a column the condition names without a known table alias belongs
     * to that scan's table.
     */
    record Filter(ExprNodeDesc condition, String scanAlias) {
    }

    JobScan(ExecDriver task) {
        MapredWork work = task.getWork();
        MapWork map = work.getMapWork();
        ReduceWork reduce = work.getReduceWork();
        Map<String, Operator<?>> roots = roots(task);
        for (Map.Entry<String, Operator<?>> e : roots.entrySet()) {
            if (e.getValue().getConf() instanceof TableScanDesc ts && ts.getTableMetadata() != null) {
                tables.put(e.getKey(), ts.getTableMetadata());
                List<String> names = new ArrayList<>();
                if (ts.getAlias() != null) {
                    names.add(ts.getAlias());
                }
                names.add(ts.getTableMetadata().getTableName());
                scanAliases.put(e.getKey(), names);
                if (ts.getNeededColumns() != null) {
                    neededColumns.put(e.getKey(), List.copyOf(ts.getNeededColumns()));
                }
            }
        }
        for (Map.Entry<Path, List<String>> e : map.getPathToAliases().entrySet()) {
            if (e.getValue().stream().noneMatch(tables::containsKey)) {
                intermediateInputs.add(normalize(e.getKey()));
            }
        }
        Set<Operator<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        roots.forEach((alias, root) -> walk(root, alias, true, seen));
        if (reduce != null && reduce.getReducer() != null) {
            walk(reduce.getReducer(), "", false, seen);
        }
        hasReduce = reduce != null;
        Integer planned = reduce == null ? null : reduce.getNumReduceTasks();
        fixedReducers = planned == null || planned < 0 ? 0 : planned;
    }

    /**
     * The map side's inputs by alias: the tables and files its map tasks scan, and the small
     * tables of its map joins, which a local task hashes for them.
     */
    static Map<String, Operator<?>> roots(ExecDriver task) {
        Map<String, Operator<?>> roots = new LinkedHashMap<>();
        List<MapredLocalWork> local = new ArrayList<>();
        if (task.getParentTasks() != null) {
            task.getParentTasks().stream().filter(p -> p instanceof MapredLocalTask)
                    .forEach(p -> local.add(((MapredLocalTask) p).getWork()));
        }
        if (task.getWork().getMapWork().getMapRedLocalWork() != null) {
            local.add(task.getWork().getMapWork().getMapRedLocalWork());
        }
        local.stream().filter(w -> w.getAliasToWork() != null).forEach(w -> roots.putAll(w.getAliasToWork()));
        roots.putAll(task.getWork().getMapWork().getAliasToWork());
        return roots;
    }

    /**
     * Rows the job writes at most: the LIMIT on its reduce side, or on its map side when it has no
     * reduce (a map-side limit before a shuffle bounds each map task, not the job).
     */
    long limit() {
        return hasReduce ? reduceLimit : mapLimit;
    }

    private static long lower(long current, long limit) {
        return current == JobShape.NO_LIMIT ? limit : Math.min(current, limit);
    }

    /** The job's major operator: a join if it joins, else a group-by if it aggregates, else extract. */
    OperatorKind majorOperator() {
        return join ? OperatorKind.JOIN : groupBy ? OperatorKind.GROUP_BY : OperatorKind.EXTRACT;
    }


    private void walk(Operator<?> root, String scanAlias, boolean mapSide, Set<Operator<?>> seen) {
        Deque<Operator<?>> todo = new ArrayDeque<>();
        todo.add(root);
        while (!todo.isEmpty()) {
            Operator<?> op = todo.pollFirst();
            if (!seen.add(op)) {
                continue;
            }
            operators.add(op.getName());
            String type = op.getType() == null ? "" : op.getType().name().toUpperCase(Locale.ROOT);
            join |= type.contains("JOIN") && !type.equals("LATERALVIEWJOIN"); // a lateral view joins a row with itself
            groupBy |= type.equals("GROUPBY");
            Object conf = op.getConf();
            if (conf instanceof FilterDesc filter && filter.getPredicate() != null) {
                filters.add(new Filter(filter.getPredicate(), scanAlias));
            } else if (conf instanceof ReduceSinkDesc sink && mapSide && sink.getKeyCols() != null) {
                sink.getKeyCols().forEach(k -> keys.add(sourceOf(k, op).getExprString()));
            } else if (conf instanceof LimitDesc limit && limit.getLimit() >= 0) {
                if (mapSide) {
                    mapLimit = lower(mapLimit, limit.getLimit());
                } else {
                    reduceLimit = lower(reduceLimit, limit.getLimit());
                }
            } else if (conf instanceof FileSinkDesc sink && sink.getDirName() != null) {
                outputs.add(normalize(sink.getDirName()));
            }
            if (op.getChildOperators() != null) {
                // depth-first, children in plan order
                List<Operator<?>> children = new ArrayList<>(op.getChildOperators());
                Collections.reverse(children);
                children.forEach(todo::addFirst);
            }
        }
    }

    /**
     * The expression a column reference stands for, traced up through the operators that
     * renamed it (CBO puts a SELECT producing {@code _col0}, {@code _col1} before each shuffle),
     * so keys read as the scanned columns.
     */
    private static ExprNodeDesc sourceOf(ExprNodeDesc expr, Operator<?> op) {
        ExprNodeDesc current = expr;
        Operator<?> at = op;
        for (int hops = 0; hops < 64 && current instanceof ExprNodeColumnDesc column; hops++) {
            if (at.getParentOperators() == null || at.getParentOperators().size() != 1) {
                break;
            }
            at = at.getParentOperators().get(0);
            Map<String, ExprNodeDesc> renamed = at.getColumnExprMap();
            ExprNodeDesc origin = renamed == null ? null : renamed.get(column.getColumn());
            if (origin != null) {
                current = origin;
            }
        }
        return current;
    }

    static String normalize(Path path) {
        String p = path.toUri().getPath();
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }
}
