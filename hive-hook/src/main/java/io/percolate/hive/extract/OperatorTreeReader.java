package io.percolate.hive.extract;

import io.percolate.estimate.OperatorTree;
import io.percolate.estimate.OperatorTree.Side;
import io.percolate.model.Predicate;
import io.percolate.selectivity.AggregateFunction;
import org.apache.hadoop.hive.ql.exec.ColumnInfo;
import org.apache.hadoop.hive.ql.exec.FunctionRegistry;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;
import org.apache.hadoop.hive.ql.plan.AggregationDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeColumnDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeConstantDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeDesc;
import org.apache.hadoop.hive.ql.plan.ExprNodeGenericFuncDesc;
import org.apache.hadoop.hive.ql.plan.FileSinkDesc;
import org.apache.hadoop.hive.ql.plan.FilterDesc;
import org.apache.hadoop.hive.ql.plan.GroupByDesc;
import org.apache.hadoop.hive.ql.plan.HashTableSinkDesc;
import org.apache.hadoop.hive.ql.plan.JoinCondDesc;
import org.apache.hadoop.hive.ql.plan.JoinDesc;
import org.apache.hadoop.hive.ql.plan.LimitDesc;
import org.apache.hadoop.hive.ql.plan.MapJoinDesc;
import org.apache.hadoop.hive.ql.plan.MapWork;
import org.apache.hadoop.hive.ql.plan.MapredWork;
import org.apache.hadoop.hive.ql.plan.ReduceSinkDesc;
import org.apache.hadoop.hive.ql.plan.SelectDesc;
import org.apache.hadoop.hive.ql.plan.TableScanDesc;
import org.apache.hadoop.hive.ql.plan.DemuxDesc;
import org.apache.hadoop.hive.ql.plan.MuxDesc;
import org.apache.hadoop.hive.ql.udf.UDFSubstr;
import org.apache.hadoop.hive.ql.udf.UDFYear;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBRound;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFBridge;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDFRound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One MapReduce job's operators as an {@link OperatorTree}: the map side from each input's
 * table scan (a map join's small tables first, from the local task that hashes them), then the
 * reduce side from its first operator, which reads every shuffle sender (a join by the senders'
 * tags). Where the tree would mislead — several map joins sharing one local task, the
 * correlation optimizer's demultiplexing — the job is left to the estimator's job-level model.
 */
final class OperatorTreeReader {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorTreeReader.class);

    private final Map<String, String> tableOfAlias;
    private final List<OperatorTree.Operator> tree = new ArrayList<>();
    /** each emitted Hive operator → its id in the tree */
    private final Map<Operator<?>, String> emitted = new IdentityHashMap<>();
    private final List<Operator<?>> senders = new ArrayList<>();
    /** the local task's hash-table sinks, one per map join of the job */
    private final List<Operator<?>> hashTableSinks = new ArrayList<>();

    private OperatorTreeReader(Map<String, String> tableOfAlias) {
        this.tableOfAlias = tableOfAlias;
    }

    /**
     * @param tableOfAlias the job's map-work aliases (and table aliases) and the {@code db.table} each reads
     * @return empty when the job has an operator the tree cannot model
     */
    static Optional<OperatorTree> read(ExecDriver task, Map<String, String> tableOfAlias) {
        String stage = task.getId();
        try {
            return Optional.of(new OperatorTreeReader(tableOfAlias).readJob(task));
        } catch (Unsupported e) {
            LOG.debug("Percolate: {} estimated as a whole job: {}", stage, e.getMessage());
            return Optional.empty();
        } catch (RuntimeException e) {
            LOG.warn("Percolate: could not read the operators of {}; estimated as a whole job", stage, e);
            return Optional.empty();
        }
    }

    private OperatorTree readJob(ExecDriver task) {
        MapredWork work = task.getWork();
        MapWork map = work.getMapWork();
        Map<String, String> pathOfAlias = new HashMap<>();
        map.getPathToAliases().forEach((path, aliases) -> aliases.forEach(a -> pathOfAlias.put(a, JobScan.normalize(path))));
        // the small tables of a map join first: their hash tables are built before the big table streams
        for (Map.Entry<String, Operator<?>> e : JobScan.roots(task).entrySet()) {
            String alias = e.getKey();
            Operator<?> root = e.getValue();
            if (!(root.getConf() instanceof TableScanDesc scan)) {
                throw new Unsupported("map input " + alias + " starts with " + root.getName());
            }
            if (scan.getTableMetadata() != null) {
                String table = scan.getTableMetadata().getFullyQualifiedName().toLowerCase(Locale.ROOT);
                List<String> columns = scan.getNeededColumns() == null ? List.of() : scan.getNeededColumns();
                add(root, new OperatorTree.Scan(root.getOperatorId(), table, columns));
            } else {
                String path = pathOfAlias.get(alias);
                if (path == null) {
                    throw new Unsupported("no path for map input " + alias);
                }
                add(root, new OperatorTree.Intermediate(root.getOperatorId(), path, schema(root)));
            }
            walkChildren(root, tableOfAlias.getOrDefault(alias, ""), Side.MAP);
        }
        if (work.getReduceWork() != null && work.getReduceWork().getReducer() != null) {
            Operator<?> reducer = work.getReduceWork().getReducer();
            List<String> inputs = senders.stream().map(Operator::getOperatorId).toList();
            if (inputs.isEmpty()) {
                throw new Unsupported("a reduce side without shuffle senders");
            }
            if (!(reducer.getConf() instanceof JoinDesc) && inputs.size() > 1) {
                String union = reducer.getOperatorId() + ".inputs";
                tree.add(new OperatorTree.PassThrough(union, inputs));
                inputs = List.of(union);
            }
            convert(reducer, inputs, "", Side.REDUCE);
            walkChildren(reducer, "", Side.REDUCE);
        }
        return new OperatorTree(tree);
    }

    /** Emits an operator's children, each after all of its parents. */
    private void walkChildren(Operator<?> op, String table, Side side) {
        if (op.getChildOperators() == null) {
            return;
        }
        for (Operator<?> child : op.getChildOperators()) {
            if (emitted.containsKey(child)) {
                continue;
            }
            if (child.getConf() instanceof HashTableSinkDesc) {
                // where a map join's small table ends (its parents hold null at the big table's
                // position); not an operator of its own
                hashTableSinks.add(child);
                emitted.put(child, child.getOperatorId());
                continue;
            }
            List<Operator<?>> parents = child.getParentOperators() == null ? List.of() : child.getParentOperators();
            if (child.getConf() instanceof MapJoinDesc) {
                // its small tables come through hash-table dummies, fed by the local task's sink
                add(child, mapJoin(child));
                walkChildren(child, table, side);
                continue;
            }
            if (!parents.stream().allMatch(emitted::containsKey)) {
                continue; // a later parent's walk emits it
            }
            convert(child, parents.stream().map(emitted::get).toList(), table, side);
            walkChildren(child, table, side);
        }
    }

    private void convert(Operator<?> op, List<String> inputs, String table, Side side) {
        Object conf = op.getConf();
        String id = op.getOperatorId();
        if (conf instanceof DemuxDesc || conf instanceof MuxDesc) {
            throw new Unsupported(op.getName() + " " + id);
        }
        if (conf instanceof GroupByDesc groupBy && groupBy.isGroupingSetsPresent()) {
            // ROLLUP/CUBE write each group once per grouping set: not modelled
            throw new Unsupported("grouping sets in " + id);
        }
        if (conf instanceof JoinDesc join) {
            add(op, reduceJoin(id, join, op));
            return;
        }
        String input = single(inputs, op);
        if (conf instanceof FilterDesc filter && filter.getPredicate() != null) {
            add(op, new OperatorTree.Filter(id, input, new PredicateTranslator(tableOfAlias, table).translate(filter.getPredicate())));
        } else if (conf instanceof SelectDesc select && !select.isSelStarNoCompute()) {
            add(op, new OperatorTree.Rename(id, input, select.getOutputColumnNames(), renamed(op), List.of(), -1, derived(op)));
        } else if (conf instanceof ReduceSinkDesc sink) {
            List<String> keys = sink.getOutputKeyColumnNames().stream().map(k -> "KEY." + k).toList();
            List<String> outputs = new ArrayList<>(keys);
            sink.getOutputValueColumnNames().forEach(v -> outputs.add("VALUE." + v));
            add(op, new OperatorTree.Rename(id, input, outputs, renamed(op), keys, Math.max(0, sink.getTag()), derived(op)));
            senders.add(op);
        } else if (conf instanceof GroupByDesc groupBy) {
            add(op, aggregate(id, input, groupBy, side));
        } else if (conf instanceof LimitDesc limit && limit.getLimit() >= 0) {
            add(op, new OperatorTree.Limit(id, input, limit.getLimit(), side));
        } else if (conf instanceof FileSinkDesc sink && sink.getDirName() != null) {
            add(op, new OperatorTree.Sink(id, input, JobScan.normalize(sink.getDirName()), schemaOrParent(op)));
        } else {
            add(op, new OperatorTree.PassThrough(id, inputs));
        }
    }

    /**
     * A reduce-side join: its inputs are the shuffle senders in the join's tag order, each
     * pairing on its sender's key columns.
     */
    private OperatorTree.Join reduceJoin(String id, JoinDesc join, Operator<?> op) {
        Map<Integer, Operator<?>> senderOfTag = new HashMap<>();
        for (Operator<?> s : senders) {
            senderOfTag.putIfAbsent(Math.max(0, ((ReduceSinkDesc) s.getConf()).getTag()), s);
        }
        return join(id, join, op, tag -> {
            Operator<?> sender = senderOfTag.get(tag);
            if (sender == null) {
                throw new Unsupported("join " + id + " has no sender for tag " + tag);
            }
            List<String> keys = ((ReduceSinkDesc) sender.getConf()).getOutputKeyColumnNames().stream()
                    .map(k -> "KEY." + k).toList();
            return new JoinInput(sender.getOperatorId(), keys);
        });
    }

    /**
     * A map join: the big table streams through its parent at the big position; each small
     * table is what the local task's hash-table sink received at that position (its parent
     * there); each pairs on the join's key expressions for its position.
     */
    private OperatorTree.Join mapJoin(Operator<?> op) {
        MapJoinDesc join = (MapJoinDesc) op.getConf();
        String id = op.getOperatorId();
        return join(id, join, op, tag -> {
            Operator<?> parent;
            if (tag == join.getPosBigTable()) {
                parent = op.getParentOperators().get(tag);
            } else {
                List<Operator<?>> small = sinkOf(op).getParentOperators();
                parent = tag < small.size() ? small.get(tag) : null;
            }
            if (parent == null || !emitted.containsKey(parent)) {
                throw new Unsupported("map join " + id + " has no input at position " + tag);
            }
            List<String> keys = new ArrayList<>();
            List<ExprNodeDesc> exprs = join.getKeys().getOrDefault((byte) (int) tag, List.of());
            for (int i = 0; i < exprs.size(); i++) {
                keys.add(exprs.get(i) instanceof ExprNodeColumnDesc c ? c.getColumn() : id + ".key" + tag + "." + i);
            }
            return new JoinInput(emitted.get(parent), keys);
        });
    }

    /**
     * The hash-table sink that fed a map join: Hive builds it from the join's description, so
     * it has the join's keys and output columns (its value columns may differ). A job's map joins share one local task, one
     * sink each.
     */
    private Operator<?> sinkOf(Operator<?> mapJoin) {
        MapJoinDesc join = (MapJoinDesc) mapJoin.getConf();
        List<Operator<?>> matching = hashTableSinks.stream().filter(sink -> {
            HashTableSinkDesc d = (HashTableSinkDesc) sink.getConf();
            return String.valueOf(d.getKeys()).equals(String.valueOf(join.getKeys()))
                    && String.valueOf(d.getOutputColumnNames()).equals(String.valueOf(join.getOutputColumnNames()));
        }).toList();
        if (matching.size() != 1) {
            throw new Unsupported("map join " + mapJoin.getOperatorId() + " matches " + matching.size() + " hash-table sinks");
        }
        return matching.get(0);
    }

    /** A join's input: the tree operator it reads and the columns it pairs on. */
    private record JoinInput(String operator, List<String> keys) {
    }

    /** The join's inputs in tag order; its outputs name an input by tag and a column there. */
    private OperatorTree.Join join(String id, JoinDesc join, Operator<?> op, Function<Integer, JoinInput> inputOfTag) {
        List<String> inputs = new ArrayList<>();
        List<List<String>> keys = new ArrayList<>();
        Map<Integer, Integer> positionOfTag = new HashMap<>();
        for (Byte tag : join.getTagOrder()) {
            JoinInput input = inputOfTag.apply((int) tag);
            positionOfTag.put((int) tag, inputs.size());
            inputs.add(input.operator());
            keys.add(input.keys());
        }
        List<OperatorTree.JoinType> types = new ArrayList<>();
        for (JoinCondDesc cond : join.getConds()) {
            types.add(joinType(cond.getType(), id));
        }
        Map<String, OperatorTree.InputColumn> outputs = new LinkedHashMap<>();
        Map<String, ExprNodeDesc> sources = op.getColumnExprMap() == null ? Map.of() : op.getColumnExprMap();
        join.getReversedExprs().forEach((name, tag) -> {
            Integer position = positionOfTag.get((int) tag);
            if (position != null && sources.get(name) instanceof ExprNodeColumnDesc column) {
                outputs.put(name, new OperatorTree.InputColumn(position, column.getColumn()));
            }
        });
        List<Predicate> residual = new ArrayList<>();
        if (join.getResidualFilterExprs() != null) {
            join.getResidualFilterExprs().forEach(e -> residual.add(new PredicateTranslator(tableOfAlias, "").translate(e)));
        }
        return new OperatorTree.Join(id, inputs, keys, types, outputs, residual);
    }

    private static OperatorTree.JoinType joinType(int type, String id) {
        return switch (type) {
            case JoinDesc.INNER_JOIN -> OperatorTree.JoinType.INNER;
            case JoinDesc.LEFT_OUTER_JOIN -> OperatorTree.JoinType.LEFT_OUTER;
            case JoinDesc.RIGHT_OUTER_JOIN -> OperatorTree.JoinType.RIGHT_OUTER;
            case JoinDesc.FULL_OUTER_JOIN -> OperatorTree.JoinType.FULL_OUTER;
            case JoinDesc.LEFT_SEMI_JOIN -> OperatorTree.JoinType.LEFT_SEMI;
            case JoinDesc.ANTI_JOIN -> OperatorTree.JoinType.ANTI;
            default -> throw new Unsupported("join " + id + " of type " + type);
        };
    }

    /** Partial modes aggregate within each task; the others see each group once. */
    private static OperatorTree.Aggregate aggregate(String id, String input, GroupByDesc groupBy, Side side) {
        List<String> keys = new ArrayList<>();
        Map<String, String> renamed = new HashMap<>();
        List<ExprNodeDesc> keyExprs = groupBy.getKeys() == null ? List.of() : groupBy.getKeys();
        List<String> outputs = groupBy.getOutputColumnNames() == null ? List.of() : groupBy.getOutputColumnNames();
        for (int i = 0; i < keyExprs.size(); i++) {
            // a computed key (year(o_orderdate)) has no statistics: a name no input column has
            String key = keyExprs.get(i) instanceof ExprNodeColumnDesc c ? c.getColumn() : id + ".key" + i;
            keys.add(key);
            if (i < outputs.size()) {
                renamed.put(outputs.get(i), key);
            }
        }
        boolean partial = switch (groupBy.getMode()) {
            case HASH, PARTIAL1, PARTIAL2, PARTIALS -> true;
            default -> false;
        };
        return new OperatorTree.Aggregate(id, input, keys, renamed, partial, side,
                aggregations(groupBy, outputs.subList(Math.min(keyExprs.size(), outputs.size()), outputs.size())));
    }

    /**
     * Output column → aggregate, for the functions the estimator models over a plain column or
     * over the rows ({@code count(*)}); aggregates of expressions are left out.
     */
    private static Map<String, OperatorTree.Aggregation> aggregations(GroupByDesc groupBy, List<String> outputs) {
        Map<String, OperatorTree.Aggregation> aggregations = new HashMap<>();
        List<AggregationDesc> aggregators = groupBy.getAggregators() == null ? List.of() : groupBy.getAggregators();
        for (int i = 0; i < aggregators.size() && i < outputs.size(); i++) {
            AggregationDesc a = aggregators.get(i);
            List<ExprNodeDesc> arguments = a.getParameters() == null ? List.of() : a.getParameters();
            Optional<AggregateFunction> function = AggregateFunction.ofHiveName(a.getGenericUDAFName());
            if (function.isEmpty() || arguments.size() > 1) {
                continue;
            }
            if (arguments.isEmpty()) {
                aggregations.put(outputs.get(i), new OperatorTree.Aggregation(function.get(), Optional.empty(), a.getDistinct()));
            } else if (arguments.get(0) instanceof ExprNodeColumnDesc c) {
                aggregations.put(outputs.get(i), new OperatorTree.Aggregation(function.get(), Optional.of(c.getColumn()),
                        a.getDistinct()));
            }
        }
        return aggregations;
    }

    /**
     * Output column → the input column it copies: plain column references, and a column under a
     * cast or {@code round(x, d)}, which keep its values (Q15 joins on {@code round(sum, 2)}).
     */
    static Map<String, String> renamed(Operator<?> op) {
        Map<String, String> renamed = new HashMap<>();
        if (op.getColumnExprMap() != null) {
            op.getColumnExprMap().forEach((name, expr) -> {
                ExprNodeDesc e = expr;
                while (e instanceof ExprNodeGenericFuncDesc f && keepsValues(f)) {
                    e = f.getChildren().get(0);
                }
                if (e instanceof ExprNodeColumnDesc c) {
                    renamed.put(name, c.getColumn());
                }
            });
        }
        return renamed;
    }

    private static boolean keepsValues(ExprNodeGenericFuncDesc f) {
        List<ExprNodeDesc> args = f.getChildren();
        if (FunctionRegistry.isOpCast(f)) {
            return args.size() == 1;
        }
        return (f.getGenericUDF() instanceof GenericUDFRound || f.getGenericUDF() instanceof GenericUDFBRound)
                && args.size() == 2 && args.get(1) instanceof ExprNodeConstantDesc;
    }

    /**
     * Output columns derived from one input column: the calendar year of a date ({@code year(o_orderdate)}),
     * a string's prefix ({@code substr(c_phone, 1, 2)}).
     */
    private static Map<String, OperatorTree.Derived> derived(Operator<?> op) {
        Map<String, OperatorTree.Derived> derived = new HashMap<>();
        if (op.getColumnExprMap() != null) {
            op.getColumnExprMap().forEach((name, expr) -> {
                if (!(expr instanceof ExprNodeGenericFuncDesc f) || f.getChildren().isEmpty()
                        || !(f.getChildren().get(0) instanceof ExprNodeColumnDesc c)) {
                    return;
                }
                List<ExprNodeDesc> args = f.getChildren();
                if (f.getGenericUDF() instanceof UDFYear && args.size() == 1) {
                    derived.put(name, OperatorTree.Derived.yearOf(c.getColumn()));
                } else if (f.getGenericUDF() instanceof GenericUDFBridge bridge && UDFSubstr.class.getName().equals(bridge.getUdfClassName())
                        && args.size() == 3 && args.get(1) instanceof ExprNodeConstantDesc start && Integer.valueOf(1).equals(start.getValue())
                        && args.get(2) instanceof ExprNodeConstantDesc length && length.getValue() instanceof Integer k && k > 0) {
                    derived.put(name, OperatorTree.Derived.prefixOf(c.getColumn(), k));
                }
            });
        }
        return derived;
    }

    private static List<String> schema(Operator<?> op) {
        if (op.getSchema() == null || op.getSchema().getSignature() == null) {
            return List.of();
        }
        return op.getSchema().getSignature().stream().map(ColumnInfo::getInternalName).toList();
    }

    private static List<String> schemaOrParent(Operator<?> op) {
        List<String> own = schema(op);
        if (own.isEmpty() && op.getParentOperators() != null && op.getParentOperators().size() == 1) {
            return schema(op.getParentOperators().get(0));
        }
        return own;
    }

    private static String single(List<String> inputs, Operator<?> op) {
        if (inputs.size() != 1) {
            throw new Unsupported(op.getName() + " " + op.getOperatorId() + " has " + inputs.size() + " inputs");
        }
        return inputs.get(0);
    }

    private void add(Operator<?> op, OperatorTree.Operator converted) {
        tree.add(converted);
        emitted.put(op, converted.id());
    }

    private static final class Unsupported extends RuntimeException {
        Unsupported(String why) {
            super(why, null, false, false);
        }
    }
}
