package io.percolate.estimate;

import io.percolate.model.Predicate;
import io.percolate.selectivity.AggregateFunction;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A job's operators from its inputs to its file sinks, each after its inputs, so rows can be
 * estimated operator by operator as Hive runs them (filters, renames, the shuffle, joins,
 * partial and final aggregation, limits) and columns traced to the base columns they carry.
 * Columns are named as the plan names them at each operator ({@code l_partkey},
 * {@code _col0}, {@code KEY.reducesinkkey0}); operators that rename say what each output
 * column was called at their input.
 *
 * @param operators in an order where every operator follows the operators it reads
 */
public record OperatorTree(List<Operator> operators) {
    public OperatorTree {
        operators = List.copyOf(operators);
        Set<String> seen = new HashSet<>();
        for (Operator op : operators) {
            for (String input : op.inputs()) {
                if (!seen.contains(input)) {
                    throw new IllegalArgumentException(op.id() + " reads " + input + ", which does not come before it");
                }
            }
            if (!seen.add(op.id())) {
                throw new IllegalArgumentException("operator " + op.id() + " appears twice");
            }
        }
    }

    /** Where an operator runs: tasks that combine or limit rows do so per task. */
    public enum Side { MAP, REDUCE }

    /** How a join pairs rows: the types Hive's join conditions name. */
    public enum JoinType { INNER, LEFT_OUTER, RIGHT_OUTER, FULL_OUTER, LEFT_SEMI, ANTI }

    /** One operator; {@code id} is Hive's ({@code FIL_16}), so estimates can be matched to its counters. */
    public sealed interface Operator {
        String id();

        List<String> inputs();
    }

    /** A base table read by the job's map side: its columns keep their names. */
    public record Scan(String id, String table, List<String> columns) implements Operator {
        public Scan {
            requireNonNull(id, "id");
            requireNonNull(table, "table");
            columns = List.copyOf(columns);
        }

        @Override
        public List<String> inputs() {
            return List.of();
        }
    }

    /**
     * An earlier job's output read back: its columns, by position, are the columns that job's
     * sink for {@code path} wrote.
     */
    public record Intermediate(String id, String path, List<String> columns) implements Operator {
        public Intermediate {
            requireNonNull(id, "id");
            requireNonNull(path, "path");
            columns = List.copyOf(columns);
        }

        @Override
        public List<String> inputs() {
            return List.of();
        }
    }

    /** A filter; the predicate's columns are named as at its input. */
    public record Filter(String id, String input, Predicate predicate) implements Operator {
        public Filter {
            requireNonNull(id, "id");
            requireNonNull(input, "input");
            requireNonNull(predicate, "predicate");
        }

        @Override
        public List<String> inputs() {
            return List.of(input);
        }
    }

    /**
     * A projection or a shuffle's sending side (SELECT, REDUCESINK): rows pass, columns are
     * renamed. {@code renamed} maps an output column to the input column it copies; an output
     * missing from it is computed.
     *
     * @param keys for a shuffle, its key columns (output names), which a join on the other side
     *             pairs on; empty for a projection
     * @param tag   for a shuffle, which input of the reduce side it feeds (Hive's tag; 0 when there
     *              is one); -1 for a projection
     * @param derived outputs computed from one input column in a way whose values can still be
     *                counted (the calendar year of a date, a string's prefix), by output
     */
    public record Rename(String id, String input, List<String> outputs, Map<String, String> renamed,
                         List<String> keys, int tag, Map<String, Derived> derived) implements Operator {
        public Rename {
            requireNonNull(id, "id");
            requireNonNull(input, "input");
            outputs = List.copyOf(outputs);
            renamed = Map.copyOf(renamed);
            keys = List.copyOf(keys);
            derived = Map.copyOf(derived);
        }

        /** A rename without derived columns. */
        public Rename(String id, String input, List<String> outputs, Map<String, String> renamed, List<String> keys,
                      int tag) {
            this(id, input, outputs, renamed, keys, tag, Map.of());
        }

        @Override
        public List<String> inputs() {
            return List.of(input);
        }
    }

    /**
     * An output column computed from input {@code column}: its calendar year ({@code year(o_orderdate)},
     * a group-by key of TPC-H Q7–Q9), or its first {@code length} characters ({@code substr(c_phone, 1, 2)},
     * Q22's country code).
     */
    public record Derived(String column, Kind kind, int length) {
        public enum Kind { YEAR, PREFIX }

        public Derived {
            requireNonNull(column, "column");
            requireNonNull(kind, "kind");
            if (kind == Kind.PREFIX ? length < 1 : length != 0) {
                throw new IllegalArgumentException(kind + " of " + column + " cannot have length " + length);
            }
        }

        public static Derived yearOf(String column) {
            return new Derived(column, Kind.YEAR, 0);
        }

        public static Derived prefixOf(String column, int length) {
            return new Derived(column, Kind.PREFIX, length);
        }
    }

    /**
     * A join of its inputs (in Hive's tag order) on the shuffle keys each input's sender named;
     * the i-th type joins input i+1 to the inputs before it.
     *
     * @param outputs  each output column: the input (position in {@code inputs}) and the column there
     * @param residual conditions over the joined rows (named as in {@code outputs}) that the join
     *                 checks before it puts a row out
     */
    public record Join(String id, List<String> inputs, List<List<String>> keys, List<JoinType> types,
                       Map<String, InputColumn> outputs, List<Predicate> residual) implements Operator {
        public Join {
            requireNonNull(id, "id");
            inputs = List.copyOf(inputs);
            keys = keys.stream().map(List::copyOf).toList();
            types = List.copyOf(types);
            outputs = Map.copyOf(outputs);
            residual = List.copyOf(residual);
            if (inputs.size() < 2 || keys.size() != inputs.size() || types.size() != inputs.size() - 1) {
                throw new IllegalArgumentException(id + ": a join needs n >= 2 inputs, n key lists and n - 1 types");
            }
        }
    }

    /** A column of one of a join's inputs. */
    public record InputColumn(int input, String column) {
        public InputColumn {
            requireNonNull(column, "column");
        }
    }

    /**
     * A group-by. A partial one (Hive's HASH mode) aggregates within each task, so it writes
     * about each task's groups; a final one writes each group once.
     *
     * @param keys         grouping columns, named as at the input
     * @param renamed      output column → the key column at the input it carries
     * @param aggregations output column → the aggregate it computes, for the functions modelled
     */
    public record Aggregate(String id, String input, List<String> keys, Map<String, String> renamed, boolean partial,
                            Side side, Map<String, Aggregation> aggregations) implements Operator {
        public Aggregate {
            requireNonNull(id, "id");
            requireNonNull(input, "input");
            requireNonNull(side, "side");
            keys = List.copyOf(keys);
            renamed = Map.copyOf(renamed);
            aggregations = Map.copyOf(aggregations);
        }

        /** A group-by whose aggregates are not modelled. */
        public Aggregate(String id, String input, List<String> keys, Map<String, String> renamed, boolean partial,
                         Side side) {
            this(id, input, keys, renamed, partial, side, Map.of());
        }

        @Override
        public List<String> inputs() {
            return List.of(input);
        }
    }

    /**
     * An aggregate a group-by computes per group: {@code function} over an input column, or over
     * the rows ({@code count(*)}: no column). After a partial group-by the final one aggregates
     * the partial results, under the same function name.
     */
    public record Aggregation(AggregateFunction function, Optional<String> column, boolean distinct) {
        public Aggregation {
            requireNonNull(function, "function");
            requireNonNull(column, "column");
        }
    }

    /** {@code LIMIT rows}, which holds per task. */
    public record Limit(String id, String input, long rows, Side side) implements Operator {
        public Limit {
            requireNonNull(id, "id");
            requireNonNull(input, "input");
            requireNonNull(side, "side");
            if (rows < 0) {
                throw new IllegalArgumentException(id + ": negative limit");
            }
        }

        @Override
        public List<String> inputs() {
            return List.of(input);
        }
    }

    /** A file sink: the job writes its rows to {@code path}, with these columns in order. */
    public record Sink(String id, String input, String path, List<String> columns) implements Operator {
        public Sink {
            requireNonNull(id, "id");
            requireNonNull(input, "input");
            requireNonNull(path, "path");
            columns = List.copyOf(columns);
        }

        @Override
        public List<String> inputs() {
            return List.of(input);
        }
    }

    /**
     * Any other operator (a union, a lateral view, windowing): its rows are its inputs' rows, its
     * columns keep their names.
     */
    public record PassThrough(String id, List<String> inputs) implements Operator {
        public PassThrough {
            requireNonNull(id, "id");
            inputs = List.copyOf(inputs);
        }
    }
}
