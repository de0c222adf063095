package io.percolate.estimate;

import io.percolate.estimate.OperatorTree.Operator;
import io.percolate.model.ColumnRef;
import io.percolate.model.Predicate;
import io.percolate.selectivity.AggregateDistribution;
import io.percolate.selectivity.AggregateFunction;
import io.percolate.selectivity.Cardinalities;
import io.percolate.selectivity.ColumnStatisticsSource;
import io.percolate.selectivity.GroupSizes;
import io.percolate.selectivity.JoinEstimate;
import io.percolate.selectivity.KeyDistribution;
import io.percolate.selectivity.Selectivity;
import io.percolate.selectivity.SelectivityEstimator;
import io.percolate.stats.ColumnStatistics;
import io.percolate.stats.ColumnType;
import io.percolate.stats.PastSelectivities;
import io.percolate.stats.StatisticsSettings;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * Rows through one job's {@link OperatorTree}, operator by operator (dissertation 5.2's IS and
 * FS, at the grain Hive runs them): a filter keeps its predicate's selectivity, a rename keeps
 * rows and traces columns, a join pairs its inputs' key distributions (eq. 5.1; semi and outer
 * joins by the share of keys that find a partner), a group-by writes its groups — per task when
 * partial (S_comb) — and a limit holds per task. Every column carries the base column it came
 * from, so a filter, join or group-by anywhere, in this job or a later one, finds its statistics.
 */
final class OperatorRows {
    /**
     * A column at some operator: the base column it carries, if any, how its values spread, for a
     * column a group-by computed which aggregate it holds, and the base tables whose columns it is
     * known to equal — its origin's, and those an equi-join matched it with.
     */
    record Column(Optional<ColumnRef> origin, KeyDistribution values, Optional<Aggregated> aggregated, Set<String> tables) {
        Column {
            tables = Set.copyOf(tables);
        }

        Column(Optional<ColumnRef> origin, KeyDistribution values, Optional<Aggregated> aggregated) {
            this(origin, values, aggregated, origin.map(o -> Set.of(o.table())).orElse(Set.of()));
        }

        Column(Optional<ColumnRef> origin, KeyDistribution values) {
            this(origin, values, Optional.empty());
        }

        /** The same column with its values spread anew (after a filter, join or resize). */
        Column withValues(KeyDistribution values) {
            return new Column(origin, values, aggregated, tables);
        }

        /** The same column, known to equal columns of {@code more} tables too. */
        Column alsoEqualTo(Set<String> more) {
            Set<String> all = new HashSet<>(tables);
            all.addAll(more);
            return new Column(origin, values, aggregated, all);
        }
    }

    /**
     * An aggregate's column: {@code function} over each group's values of a column with
     * statistics {@code over} (empty for {@code count(*)}), from {@code sourceRows} rows before
     * any aggregation. After a partial group-by the values are pending; the final group-by knows
     * its groups and derives them ({@link AggregateDistribution}), under a column reference of
     * their own ({@code origin}) that a filter resolves to.
     */
    record Aggregated(AggregateFunction function, boolean distinct, Optional<ColumnStatistics> over, double sourceRows,
                      Optional<ColumnStatistics> values) {
        Aggregated withValues(Optional<ColumnStatistics> values) {
            return new Aggregated(function, distinct, over, sourceRows, values);
        }
    }

    /** What flows out of an operator. */
    record Relation(double rows, Map<String, Column> columns) {
    }

    /**
     * A job's estimate: rows and bytes written (all sinks), rows and bytes shuffled, what each sink
     * wrote (what a later job reading that path sees), rows out of every operator by id, and whether
     * statistics backed every step.
     */
    record Outcome(double outputRows, double outputBytes, double shuffledRows, double shuffledBytes,
                   Map<String, Sunk> sinks, Map<String, Double> operatorRows, Map<String, Lineage> remembered,
                   boolean measured) {
    }

    /**
     * A path an earlier job wrote: its rows, its columns in order, whether statistics backed them,
     * and how its rows were made.
     */
    record Sunk(double rows, List<Column> columns, boolean measured, Lineage lineage) {
        /** The same path when the job really wrote {@code factor} times the rows estimated. */
        Sunk scaled(double factor) {
            return new Sunk(rows * factor, columns.stream()
                    .map(c -> c.withValues(resize(c.values(), rows, rows * factor))).toList(), true, lineage);
        }
    }

    /**
     * How far a clustered key's mean run (after thinning) may stray from the estimated rows per
     * group, and the rows reaching it from its table's, for the runs still to describe the groups.
     */
    private static final double RUNS_AGREE = 1.5;

    private final ColumnStatisticsSource statistics;
    private final StatisticsSettings settings;
    private final SelectivityEstimator selectivity;
    private final RowWidths widths;

    OperatorRows(ColumnStatisticsSource statistics, StatisticsSettings settings) {
        this.statistics = requireNonNull(statistics, "statistics");
        this.settings = requireNonNull(settings, "settings");
        this.selectivity = new SelectivityEstimator(statistics, settings);
        this.widths = new RowWidths(statistics);
    }

    /**
     * @param tableRows    rows of each scanned table before its filters
     * @param intermediate each path earlier jobs wrote, with its columns in order (the writer's sink)
     * @param maps         the job's map tasks
     * @param reducers     its reduce tasks
     * @return empty when the tree reads a table or path it was not given
     */
    Optional<Outcome> estimate(OperatorTree tree, Map<String, Double> tableRows,
                               Map<String, Sunk> intermediate, int maps, int reducers) {
        Walk walk = new Walk(maps, reducers);
        for (Operator op : tree.operators()) {
            List<Relation> in = op.inputs().stream().map(walk.out::get).toList();
            walk.lineages.put(op.id(), walk.lineage(op, in, intermediate));
            Relation r;
            if (op instanceof OperatorTree.Scan scan) {
                Double rows = tableRows.get(scan.table());
                if (rows == null) {
                    return Optional.empty();
                }
                r = walk.scan(scan, rows);
            } else if (op instanceof OperatorTree.Intermediate read) {
                Sunk sunk = intermediate.get(read.path());
                if (sunk == null) {
                    return Optional.empty();
                }
                r = walk.read(read, sunk);
            } else if (op instanceof OperatorTree.Filter filter) {
                r = walk.filter(filter.predicate(), in.get(0));
            } else if (op instanceof OperatorTree.Rename rename) {
                r = walk.rename(rename, in.get(0));
            } else if (op instanceof OperatorTree.Join join) {
                r = walk.join(join, in);
            } else if (op instanceof OperatorTree.Aggregate aggregate) {
                r = walk.aggregate(aggregate, in.get(0));
            } else if (op instanceof OperatorTree.Limit limit) {
                Relation input = in.get(0);
                r = resized(input, Math.min(input.rows(), (double) limit.rows() * walk.tasks(limit.side())));
            } else if (op instanceof OperatorTree.Sink sink) {
                r = walk.sink(sink, in.get(0));
            } else if (op instanceof OperatorTree.PassThrough) {
                Map<String, Column> columns = new HashMap<>();
                in.forEach(i -> i.columns().forEach(columns::putIfAbsent));
                r = new Relation(in.stream().mapToDouble(Relation::rows).sum(), columns);
            } else {
                throw new IllegalStateException("unknown operator " + op);
            }
            walk.out.put(op.id(), r);
            walk.operatorRows.put(op.id(), r.rows());
        }
        Map<String, Lineage> remembered = new LinkedHashMap<>();
        tree.operators().stream().filter(OperatorRows::remembered)
                .forEach(op -> remembered.put(op.id(), walk.lineages.get(op.id())));
        return Optional.of(new Outcome(walk.written, walk.writtenBytes, walk.shuffled, walk.shuffledBytes,
                Map.copyOf(walk.sinks), walk.operatorRows, remembered, walk.measured));
    }

    /**
     * Whether what the operator put out is remembered once it ran: joins, and group-bys by keys
     * (without keys one row per task or in all, which is known anyway).
     */
    private static boolean remembered(Operator op) {
        return op instanceof OperatorTree.Join
                || op instanceof OperatorTree.Aggregate agg && !agg.keys().isEmpty();
    }

    /** One job's walk: what each operator put out so far, and the job's totals. */
    private final class Walk {
        final Map<String, Relation> out = new HashMap<>();
        final Map<String, Double> operatorRows = new LinkedHashMap<>();
        final Map<String, Sunk> sinks = new LinkedHashMap<>();
        /** How each operator's rows were made, by its id. */
        final Map<String, Lineage> lineages = new HashMap<>();
        /** Tables and earlier jobs' paths this job reads. */
        final Set<String> inputs = new HashSet<>();
        /** The base columns each shuffle partitions its rows by, one set per sending side. */
        final List<Set<ColumnRef>> partitions = new ArrayList<>();
        final int maps;
        final int reducers;
        double written;
        double writtenBytes;
        double shuffled;
        double shuffledBytes;
        boolean measured = true;

        Walk(int maps, int reducers) {
            this.maps = maps;
            this.reducers = reducers;
        }

        int tasks(OperatorTree.Side side) {
            return Math.max(1, side == OperatorTree.Side.MAP ? maps : reducers);
        }

        /** A base table's columns from its statistics, each tied to its base column. */
        Relation scan(OperatorTree.Scan scan, double rows) {
            inputs.add(scan.table());
            Map<String, Column> columns = new HashMap<>();
            for (String c : scan.columns()) {
                ColumnRef ref = new ColumnRef(scan.table(), c);
                KeyDistribution values = statistics.find(ref).map(s -> KeyDistribution.of(s, settings.preferredHistogram()))
                        .orElse(KeyDistribution.ofCounts(rows, 0));
                measured &= values.distinct() > 0;
                columns.put(c, new Column(Optional.of(ref), values));
            }
            return new Relation(rows, columns);
        }

        /** An earlier job's output: its sink's columns by position, under the names this scan gives them. */
        Relation read(OperatorTree.Intermediate read, Sunk sunk) {
            inputs.add(read.path());
            Map<String, Column> columns = new HashMap<>();
            for (int i = 0; i < read.columns().size() && i < sunk.columns().size(); i++) {
                columns.put(read.columns().get(i), sunk.columns().get(i));
            }
            measured &= sunk.measured();
            return new Relation(sunk.rows(), columns);
        }

        Relation filter(Predicate predicate, Relation input) {
            Selectivity s = selectivityOver(input).estimate(resolve(predicate, input));
            measured &= s.confidence() != Selectivity.Confidence.LOW;
            return narrowed(resized(input, input.rows() * s.value()), predicate, input);
        }

        Relation rename(OperatorTree.Rename rename, Relation input) {
            Map<String, Column> columns = new HashMap<>();
            for (String name : rename.outputs()) {
                String from = rename.renamed().get(name);
                Column c = from == null ? null : input.columns().get(from);
                OperatorTree.Derived derived = rename.derived().get(name);
                columns.put(name, c != null ? c
                        : derived != null ? derived(derived, input.columns().get(derived.column()), input.rows())
                        : computed(input.rows()));
            }
            if (rename.tag() >= 0) {
                shuffled += input.rows();
                List<Column> keys = new ArrayList<>();
                List<Column> values = new ArrayList<>();
                columns.forEach((name, c) -> (rename.keys().contains(name) ? keys : values).add(c));
                shuffledBytes += input.rows() * widths.shuffled(keys, values);
                if (!keys.isEmpty() && keys.stream().allMatch(k -> k.origin().isPresent())) {
                    partitions.add(keys.stream().map(k -> k.origin().get()).collect(Collectors.toSet()));
                }
            }
            return new Relation(input.rows(), columns);
        }

        /**
         * The join's pairs (eq. 5.1 and kin), less those its residual conditions turn away; or,
         * when the same join ran before, the share of its largest input it put out then.
         */
        Relation join(OperatorTree.Join join, List<Relation> inputs) {
            JoinOutcome j = OperatorRows.this.join(join, inputs);
            Relation joined = j.relation();
            for (Predicate residual : join.residual()) {
                joined = filter(residual, joined);
            }
            Optional<Double> past = pastRows(join, inputs.stream().mapToDouble(Relation::rows).max().orElse(0));
            if (past.isPresent()) {
                return resized(joined, past.get());
            }
            measured &= j.measured();
            return joined;
        }

        /**
         * The rows the operator puts out by the share of its largest input's it put out when it
         * last ran, if it did ({@link #remembered}).
         */
        Optional<Double> pastRows(Operator op, double largestInput) {
            return lineages.get(op.id()).key().flatMap(statistics::pastShare).map(share -> share * largestInput);
        }

        /** How {@code op}'s rows are made from its inputs' ({@link Lineage}), columns named by their base columns. */
        Lineage lineage(Operator op, List<Relation> in, Map<String, Sunk> intermediate) {
            List<Lineage> from = op.inputs().stream().map(lineages::get).toList();
            if (op instanceof OperatorTree.Scan scan) {
                return Lineage.table(scan.table());
            } else if (op instanceof OperatorTree.Intermediate read) {
                Sunk sunk = intermediate.get(read.path());
                return sunk != null ? sunk.lineage() : Lineage.over("unknown " + read.path(), List.of());
            } else if (op instanceof OperatorTree.Filter filter) {
                Predicate resolved = resolve(filter.predicate(), in.get(0));
                // conjuncts in one order, as a remembered filter's key has them
                return Lineage.over("filter[" + PastSelectivities.keyOf(List.of(resolved)).orElse(resolved.toString()) + "]",
                        from);
            } else if (op instanceof OperatorTree.Rename || op instanceof OperatorTree.Sink) {
                return from.get(0); // rows pass
            } else if (op instanceof OperatorTree.Join join) {
                List<String> keys = new ArrayList<>();
                for (int i = 0; i < join.inputs().size(); i++) {
                    keys.add(traced(join.keys().get(i), in.get(i)).toString());
                }
                return Lineage.over("join[" + join.types() + " on " + String.join(" = ", keys)
                        + (join.residual().isEmpty() ? "" : " where " + join.residual()) + "]", from);
            } else if (op instanceof OperatorTree.Aggregate agg) {
                return Lineage.over("group[" + traced(agg.keys(), in.get(0))
                        + (agg.partial() ? " partial on " + agg.side() : "") + "]", from);
            } else if (op instanceof OperatorTree.Limit limit) {
                return Lineage.over("limit[" + limit.rows() + " per " + limit.side() + "]", from);
            }
            return Lineage.over("pass", from); // a union, lateral view or windowing: rows as PassThrough takes them
        }

        /**
         * G = the groups of its keys' distinct values; a final group-by writes G rows, a partial
         * one what each of its tasks sees of them (S_comb: once per task and key when the maps read
         * only the key's table, in which the key is clustered; else randomly placed keys). A
         * partial one in reducers whose shuffle partitioned the rows by some of its keys (Q13's
         * count per customer after joining on the customer) sees each group in one reducer only.
         * When the same group-by ran before: the share of its input it put out then, which also
         * holds keys that come in runs after a join (Q3's lines of an order).
         */
        Relation aggregate(OperatorTree.Aggregate agg, Relation input) {
            List<Double> distincts = new ArrayList<>();
            for (String key : agg.keys()) {
                Column c = input.columns().get(key);
                double d = c == null ? 0 : c.values().distinct();
                distincts.add(d > 0 ? d : -1.0);
            }
            var groupBy = Cardinalities.groupBy(input.rows(), distincts, 0, Cardinalities.KeyPlacement.RANDOM);
            double groups = groupBy.outputRows();
            // a map reading the key's table alone streams it in file order (a map join would stream
            // a table we cannot name here)
            boolean inFileOrder = agg.side() == OperatorTree.Side.MAP
                    && clusteredKey(agg, input).filter(k -> inputs.equals(Set.of(k.table()))).isPresent();
            Optional<Double> past = pastRows(agg, input.rows());
            measured &= past.isPresent() || groupBy.confidence() != Selectivity.Confidence.LOW;
            double rows = past.orElseGet(() -> !agg.partial() || partitionedBy(agg, input) ? groups
                    : Cardinalities.combined(input.rows(), groups, tasks(agg.side()),
                            inFileOrder ? Cardinalities.KeyPlacement.CLUSTERED : Cardinalities.KeyPlacement.RANDOM));
            Map<String, Column> columns = new HashMap<>();
            agg.renamed().forEach((name, key) -> {
                Column c = input.columns().get(key);
                columns.put(name, c == null ? computed(rows)
                        : c.withValues(KeyDistribution.ofCounts(rows, c.values().distinct())));
            });
            agg.aggregations().forEach((name, a) -> columns.put(name, aggregated(agg, name, a, input, rows)));
            return new Relation(rows, columns);
        }

        /**
         * An aggregate's column. A partial group-by's is pending: the final one aggregates its
         * partial results under the same function, so it takes the function, the column and the
         * rows before aggregating from it, and derives the values over its own groups.
         */
        Column aggregated(OperatorTree.Aggregate agg, String name, OperatorTree.Aggregation a, Relation input, double groups) {
            Column argument = a.column().map(input.columns()::get).orElse(null);
            Aggregated pending = argument == null ? null : argument.aggregated().filter(p -> p.values().isEmpty()).orElse(null);
            Aggregated aggregate = pending != null ? pending
                    : new Aggregated(a.function(), a.distinct(), argument == null ? Optional.empty() : statisticsOf(argument),
                            input.rows(), Optional.empty());
            if (agg.partial()) {
                return new Column(Optional.empty(), KeyDistribution.ofCounts(groups, 0), Optional.of(aggregate));
            }
            Optional<ColumnStatistics> values = groups <= 0 ? Optional.empty()
                    : AggregateDistribution.of(aggregate.function(), aggregate.distinct(), aggregate.over(),
                            groupSizes(agg, input, aggregate.sourceRows(), groups), name, settings.preferredHistogram());
            // distinct values among the groups, so a join on the aggregate (Q2's minimum cost) has a key;
            // a sum, average or extreme of an expression we cannot follow (Q15's revenue) rarely
            // repeats across groups, where a count may
            double distinct = values.map(v -> AggregateDistribution.distinctAmong(v, groups))
                    .orElse(aggregate.function() == AggregateFunction.COUNT ? 0.0 : groups);
            return new Column(Optional.of(new ColumnRef("(" + agg.id() + ")", name)), KeyDistribution.ofCounts(groups, distinct),
                    Optional.of(aggregate.withValues(values)));
        }

        /**
         * How many rows each group held: a clustered key's own row counts (its runs), thinned by
         * the share of its table's rows that reached the group-by, when they agree with the mean
         * the row and group estimates give (after a join that fanned rows out they do not);
         * otherwise rows at random among the groups.
         */
        GroupSizes groupSizes(OperatorTree.Aggregate agg, Relation input, double sourceRows, double groups) {
            double mean = Math.max(1, sourceRows / groups);
            Optional<ColumnStatistics> key = clusteredKey(agg, input).flatMap(statistics::find);
            // rows estimated from file sizes may overshoot the statistics' count by a little
            if (key.isPresent() && key.get().rowCount() > 0 && sourceRows > 0 && sourceRows <= RUNS_AGREE * key.get().rowCount()) {
                GroupSizes runs = GroupSizes.ofRuns(key.get().runLengths(), Math.min(1, sourceRows / key.get().rowCount()));
                if (runs.mean() <= RUNS_AGREE * mean && mean <= RUNS_AGREE * runs.mean()) {
                    return runs;
                }
            }
            return GroupSizes.around(mean);
        }

        /** Whether a reduce-side group-by's keys hold every column one of the shuffle's sides partitioned by. */
        boolean partitionedBy(OperatorTree.Aggregate agg, Relation input) {
            if (agg.side() != OperatorTree.Side.REDUCE) {
                return false;
            }
            Set<ColumnRef> keys = agg.keys().stream().map(input.columns()::get).filter(Objects::nonNull)
                    .flatMap(c -> c.origin().stream()).collect(Collectors.toSet());
            return partitions.stream().anyMatch(keys::containsAll);
        }

        /** The group-by's one key's base column, when its rows lie together in its table's files. */
        Optional<ColumnRef> clusteredKey(OperatorTree.Aggregate agg, Relation input) {
            if (agg.keys().size() != 1) {
                return Optional.empty();
            }
            Column key = input.columns().get(agg.keys().get(0));
            if (key == null || key.aggregated().isPresent()) {
                return Optional.empty();
            }
            return key.origin().filter(ref -> statistics.find(ref).filter(ColumnStatistics::clustered).isPresent());
        }

        Relation sink(OperatorTree.Sink sink, Relation input) {
            written += input.rows();
            List<Column> columns = new ArrayList<>();
            for (String c : sink.columns()) {
                columns.add(input.columns().getOrDefault(c, computed(input.rows())));
            }
            // a file per reducer, or per map in a map-only job
            writtenBytes += widths.written(input.rows(), columns, reducers > 0 ? reducers : Math.max(1, maps));
            sinks.put(sink.path(), new Sunk(input.rows(), List.copyOf(columns), measured, lineages.get(sink.id())));
            return input;
        }
    }

    private record JoinOutcome(Relation relation, boolean measured) {
    }

    /**
     * The inputs folded in tag order. Each step pairs the rows so far with the next input on the
     * key distributions of their join keys: an inner join by eq. 5.1; a semi join keeps the left
     * rows whose key finds a partner (containment: all of them when the left has no more distinct
     * keys than the right, else d_right/d_left of them); an anti join the others; an outer join
     * adds the unmatched rows of its outer side(s) to the inner join. Keys are taken as
     * independent draws from their base columns' domain (see {@link #matched}), for inner joins
     * too: two filtered sides need not share their values.
     */
    private JoinOutcome join(OperatorTree.Join join, List<Relation> inputs) {
        boolean measured = true;
        Relation first = inputs.get(0);
        double rows = first.rows();
        KeyDistribution key = keyOf(first, join.keys().get(0));
        double domain = domain(first, join.keys().get(0));
        measured &= key.distinct() > 0 || join.keys().get(0).isEmpty();
        for (int i = 1; i < inputs.size(); i++) {
            Relation next = inputs.get(i);
            if (join.keys().get(i).isEmpty() && join.keys().get(i - 1).isEmpty()) {
                // no keys: a cross product (Hive pairs every row with one reducer)
                rows = rows * next.rows();
                key = KeyDistribution.ofCounts(rows, 0);
                continue;
            }
            KeyDistribution nextKey = keyOf(next, join.keys().get(i));
            domain = Math.max(domain, domain(next, join.keys().get(i)));
            measured &= nextKey.distinct() > 0;
            // an unknown key is taken as a foreign key meeting the other side's keys
            if (key.distinct() == 0 && nextKey.distinct() > 0) {
                key = KeyDistribution.ofCounts(key.rows(), nextKey.distinct());
            } else if (nextKey.distinct() == 0 && key.distinct() > 0) {
                nextKey = KeyDistribution.ofCounts(nextKey.rows(), key.distinct());
            }
            Optional<JoinEstimate> paired = inputs.size() == 2
                    ? pairedAcrossTables(first, join.keys().get(0), next, join.keys().get(i)) : Optional.empty();
            JoinEstimate inner = paired.isPresent() ? paired.get() : Cardinalities.join(key, nextKey, domain);
            double leftMatch = matched(key, nextKey, domain);
            double rightMatch = matched(nextKey, key, domain);
            double leftUnmatched = rows - key.rows() * leftMatch;
            double rightUnmatched = next.rows() - nextKey.rows() * rightMatch;
            switch (join.types().get(i - 1)) {
                case INNER -> {
                    rows = inner.rows();
                    key = inner.key();
                }
                case LEFT_SEMI -> {
                    rows = rows - leftUnmatched;
                    key = key.scaled(leftMatch);
                }
                case ANTI -> {
                    rows = leftUnmatched;
                    key = KeyDistribution.ofCounts(leftUnmatched, key.distinct() * (1 - leftMatch));
                }
                case LEFT_OUTER -> {
                    rows = inner.rows() + leftUnmatched;
                    key = KeyDistribution.ofCounts(rows, key.distinct());
                }
                case RIGHT_OUTER -> {
                    rows = inner.rows() + rightUnmatched;
                    key = KeyDistribution.ofCounts(rows, nextKey.distinct());
                }
                case FULL_OUTER -> {
                    rows = inner.rows() + leftUnmatched + rightUnmatched;
                    key = KeyDistribution.ofCounts(rows, Math.max(key.distinct(), nextKey.distinct()));
                }
            }
            rows = Math.max(0, rows);
        }
        Map<String, Column> columns = new HashMap<>();
        boolean singleKey = join.keys().stream().allMatch(k -> k.size() == 1);
        for (Map.Entry<String, OperatorTree.InputColumn> e : join.outputs().entrySet()) {
            OperatorTree.InputColumn from = e.getValue();
            if (from.input() < 0 || from.input() >= inputs.size()) {
                continue;
            }
            Relation input = inputs.get(from.input());
            Column c = input.columns().get(from.column());
            if (c == null) {
                columns.put(e.getKey(), computed(rows));
                continue;
            }
            c = c.alsoEqualTo(matchedTables(join, inputs, from));
            if (singleKey && join.keys().get(from.input()).contains(from.column())) {
                columns.put(e.getKey(), c.withValues(KeyDistribution.ofCounts(rows, key.distinct())));
            } else {
                columns.put(e.getKey(), c.withValues(resize(c.values(), input.rows(), rows)));
            }
        }
        return new JoinOutcome(new Relation(rows, columns), measured);
    }

    /**
     * A filter's own columns keep fewer distinct values than a random filter would leave: one
     * after {@code =}, at most the list after {@code IN}, the range's share after a range
     * (values spread uniformly over the domain). Only conjuncts narrow; an OR may keep any value.
     */
    private Relation narrowed(Relation filtered, Predicate predicate, Relation input) {
        List<Predicate> conjuncts = predicate instanceof Predicate.And and ? and.terms() : List.of(predicate);
        Map<String, Column> columns = new HashMap<>(filtered.columns());
        for (Predicate p : conjuncts) {
            if (!(p instanceof Predicate.Comparison c) || !columns.containsKey(c.column().name())) {
                continue;
            }
            Column before = input.columns().get(c.column().name());
            double kept = switch (c.op()) {
                case EQ -> 1;
                case IN -> c.operands().size();
                case LT, LE, GT, GE, BETWEEN -> before.values().distinct()
                        * selectivityOver(input).estimate(resolve(c, input)).value();
                default -> Double.POSITIVE_INFINITY;
            };
            Column now = columns.get(c.column().name());
            if (kept < now.values().distinct()) {
                columns.put(c.column().name(), now.withValues(
                        KeyDistribution.ofCounts(now.values().rows(), Math.max(Math.min(1, now.values().rows()), kept))));
            }
        }
        return new Relation(filtered.rows(), columns);
    }

    /**
     * Share of one side's key rows whose key the other side has. Both sides' keys are taken as
     * drawn from one domain — the larger of their base columns' distinct counts, before any
     * filter — so a value of one side is among the other's d values with probability d / domain
     * (containment when neither side was filtered: the side with fewer values finds all of
     * them on the other).
     */
    private static double matched(KeyDistribution side, KeyDistribution other, double domain) {
        if (side.distinct() <= 0 || other.distinct() <= 0) {
            return other.rows() > 0 ? 1 : 0;
        }
        return Math.min(1, other.distinct() / Math.max(domain, Math.max(side.distinct(), other.distinct())));
    }

    /** Distinct values of a single join key's base column before any filter; 0 if unknown or a composite key. */
    private double domain(Relation input, List<String> keys) {
        if (keys.size() != 1) {
            return 0;
        }
        Column c = input.columns().get(keys.get(0));
        return c == null ? 0 : c.origin().flatMap(statistics::find).map(s -> (double) s.distinctCount()).orElse(0.0);
    }

    /**
     * A join on several columns of which one side pairs columns of different tables (Q5's
     * customer key with a supplier's nation): such a pair is an independent combination, so each
     * column must match on its own, 1 / max(d1, d2) apiece (System R). The composite key of
     * {@link #keyOf} would take every pair for a foreign key, as it is when both columns come
     * from one table (lineitem's part and supplier against partsupp's). Empty unless it applies
     * and every column's distinct count is known.
     */
    private static Optional<JoinEstimate> pairedAcrossTables(Relation left, List<String> leftKeys, Relation right,
                                                             List<String> rightKeys) {
        if (leftKeys.size() < 2 || leftKeys.size() != rightKeys.size()
                || !(spansTables(left, leftKeys) || spansTables(right, rightKeys))) {
            return Optional.empty();
        }
        double rows = left.rows() * right.rows();
        for (int k = 0; k < leftKeys.size(); k++) {
            Column l = left.columns().get(leftKeys.get(k));
            Column r = right.columns().get(rightKeys.get(k));
            if (l == null || r == null || l.values().distinct() <= 0 || r.values().distinct() <= 0) {
                return Optional.empty();
            }
            rows /= Math.max(l.values().distinct(), r.values().distinct());
        }
        return Optional.of(new JoinEstimate(rows, KeyDistribution.ofCounts(rows, 0), Selectivity.Confidence.MEDIUM));
    }

    /**
     * Whether the key columns pair values of different tables: no one table has a column equal to
     * each (Q2's part key, equi-joined with partsupp's, and partsupp's cost are one table's pair).
     * An aggregate is its group's, so it pairs with nothing independently (Q2's per-part minimum).
     */
    private static boolean spansTables(Relation input, List<String> keys) {
        Set<String> common = null;
        for (String k : keys) {
            Column c = input.columns().get(k);
            if (c != null && c.aggregated().isPresent()) {
                continue;
            }
            if (c == null || c.tables().isEmpty()) {
                return false;
            }
            if (common == null) {
                common = new HashSet<>(c.tables());
            } else {
                common.retainAll(c.tables());
            }
        }
        return common != null && common.isEmpty();
    }

    /** The tables of the columns an equi-join's key at {@code from}'s position matched it with; none if not a key. */
    private static Set<String> matchedTables(OperatorTree.Join join, List<Relation> inputs, OperatorTree.InputColumn from) {
        int position = join.keys().get(from.input()).indexOf(from.column());
        if (position < 0) {
            return Set.of();
        }
        Set<String> tables = new HashSet<>();
        for (int j = 0; j < inputs.size(); j++) {
            List<String> keys = join.keys().get(j);
            Column other = j == from.input() || position >= keys.size() ? null : inputs.get(j).columns().get(keys.get(position));
            if (other != null) {
                tables.addAll(other.tables());
            }
        }
        return tables;
    }

    /**
     * The key of a join input: one column's distribution, or for several columns their rows with
     * the product of their distinct counts (capped by the rows), unknown if any is unknown.
     */
    private static KeyDistribution keyOf(Relation input, List<String> keys) {
        if (keys.size() == 1) {
            Column c = input.columns().get(keys.get(0));
            return c == null ? KeyDistribution.ofCounts(input.rows(), 0) : c.values();
        }
        double distinct = keys.isEmpty() ? 0 : 1;
        for (String k : keys) {
            Column c = input.columns().get(k);
            distinct = c == null || c.values().distinct() <= 0 ? 0 : Math.min(input.rows(), distinct * c.values().distinct());
        }
        return KeyDistribution.ofCounts(input.rows(), distinct);
    }

    /** The predicate with each column named as this input names it replaced by the base column it carries. */
    private static Predicate resolve(Predicate p, Relation input) {
        return PredicateColumns.mapped(p, c -> base(c, input));
    }

    /** The base column an input's column carries; the column as named when the input has no such column. */
    private static ColumnRef base(ColumnRef named, Relation input) {
        Column column = input.columns().get(named.name());
        return column == null ? named : column.origin().orElse(new ColumnRef("", named.name()));
    }

    /** A column's statistics: an aggregate's derived values, or its base column's. */
    private Optional<ColumnStatistics> statisticsOf(Column c) {
        Optional<ColumnStatistics> derived = c.aggregated().flatMap(Aggregated::values);
        return derived.isPresent() ? derived : c.origin().flatMap(statistics::find);
    }

    /**
     * The selectivity estimator for predicates over this input: the base columns' statistics,
     * plus the values of the aggregates the input carries, under their own references.
     */
    private SelectivityEstimator selectivityOver(Relation input) {
        Map<ColumnRef, ColumnStatistics> derived = new HashMap<>();
        for (Column c : input.columns().values()) {
            if (c.origin().isPresent()) {
                c.aggregated().flatMap(Aggregated::values).ifPresent(v -> derived.put(c.origin().get(), v));
            }
        }
        if (derived.isEmpty()) {
            return selectivity;
        }
        return new SelectivityEstimator(new ColumnStatisticsSource() {
            @Override
            public Optional<ColumnStatistics> find(ColumnRef ref) {
                return derived.containsKey(ref) ? Optional.of(derived.get(ref)) : statistics.find(ref);
            }

            @Override
            public Optional<Double> pastSelectivity(List<Predicate> filters) {
                return statistics.pastSelectivity(filters);
            }

            @Override
            public Optional<Double> pastShare(String lineage) {
                return statistics.pastShare(lineage);
            }
        }, settings);
    }

    /** Columns by the base columns they carry where known, else by their names here. */
    private static List<String> traced(List<String> names, Relation input) {
        return names.stream().map(n -> Optional.ofNullable(input.columns().get(n)).flatMap(Column::origin)
                .map(ColumnRef::toString).orElse(n)).toList();
    }

    private static Relation resized(Relation input, double rows) {
        Map<String, Column> columns = new HashMap<>();
        input.columns().forEach((name, c) -> columns.put(name, c.withValues(resize(c.values(), input.rows(), rows))));
        return new Relation(rows, columns);
    }

    private static KeyDistribution resize(KeyDistribution values, double fromRows, double toRows) {
        return fromRows <= 0 ? KeyDistribution.ofCounts(0, 0) : values.scaled(toRows / fromRows);
    }

    /**
     * A column derived from {@code from}: the values its base column's statistics allow (the span
     * of years of a date; the distinct prefixes of a string's sample, by the GEE estimator
     * √(N/n)·f₁ + Σ_{j≥2} f_j), in the share of the base column's values {@code from} still
     * covers (a filter that kept two of seven years' dates keeps two years, one that kept 7 of 25
     * country codes' phone numbers keeps 7 codes); unknown without the base column's statistics.
     */
    private Column derived(OperatorTree.Derived derived, Column from, double rows) {
        Optional<ColumnStatistics> base = from == null ? Optional.empty() : from.origin().flatMap(statistics::find)
                .filter(s -> s.min() != null && s.distinctCount() > 0);
        double values;
        if (base.isPresent() && derived.kind() == OperatorTree.Derived.Kind.YEAR && base.get().type() == ColumnType.DATE) {
            ColumnStatistics s = base.get();
            values = LocalDate.ofEpochDay(s.max().longValue()).getYear() - LocalDate.ofEpochDay(s.min().longValue()).getYear() + 1;
        } else if (base.isPresent() && derived.kind() == OperatorTree.Derived.Kind.PREFIX && !base.get().sample().isEmpty()) {
            Map<String, Integer> prefixes = new HashMap<>();
            for (String v : base.get().sample()) {
                prefixes.merge(v.substring(0, Math.min(v.length(), derived.length())), 1, Integer::sum);
            }
            long once = prefixes.values().stream().filter(n -> n == 1).count();
            double sampled = base.get().sample().size();
            values = Math.min(base.get().distinctCount(),
                    Math.sqrt(Math.max(1, base.get().nonNullCount() / sampled)) * once + (prefixes.size() - once));
        } else {
            return computed(rows);
        }
        double share = from.values().distinct() > 0 ? Math.min(1, from.values().distinct() / base.get().distinctCount()) : 1;
        return new Column(Optional.empty(), KeyDistribution.ofCounts(rows, Math.max(1, Math.min(values, Math.round(values * share)))));
    }

    /** A computed column (an expression or an aggregate): nothing known of its values. */
    private static Column computed(double rows) {
        return new Column(Optional.empty(), KeyDistribution.ofCounts(rows, 0));
    }
}
