package io.percolate.it.cluster;

import org.apache.hadoop.hive.ql.exec.ConditionalTask;
import org.apache.hadoop.hive.ql.exec.Operator;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.plan.MapredWork;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The MapReduce jobs of a compiled Hive plan and their operators: what Hive planned, to read its estimates or its output. */
public final class PlanTasks {
    private PlanTasks() {
    }

    /** Every task reachable from {@code roots}, a conditional task's branches included, whose work is a MapReduce job. */
    public static List<Task<?>> mapReduce(Collection<? extends Task<?>> roots) {
        List<Task<?>> jobs = new ArrayList<>();
        Deque<Task<?>> tasks = new ArrayDeque<>(roots);
        Set<Task<?>> seen = new HashSet<>();
        while (!tasks.isEmpty()) {
            Task<?> task = tasks.poll();
            if (!seen.add(task)) {
                continue;
            }
            if (task.getChildTasks() != null) {
                tasks.addAll(task.getChildTasks());
            }
            if (task instanceof ConditionalTask conditional) {
                tasks.addAll(conditional.getListTasks());
            }
            if (task.getWork() instanceof MapredWork) {
                jobs.add(task);
            }
        }
        return jobs;
    }

    /** Every operator of a MapReduce job, its map side's and its reduce side's. */
    public static List<Operator<?>> operators(MapredWork work) {
        Deque<Operator<?>> ops = new ArrayDeque<>(work.getMapWork().getAliasToWork().values());
        if (work.getReduceWork() != null && work.getReduceWork().getReducer() != null) {
            ops.add(work.getReduceWork().getReducer());
        }
        List<Operator<?>> all = new ArrayList<>();
        Set<Operator<?>> seen = new HashSet<>();
        while (!ops.isEmpty()) {
            Operator<?> op = ops.poll();
            if (!seen.add(op)) {
                continue;
            }
            all.add(op);
            if (op.getChildOperators() != null) {
                ops.addAll(op.getChildOperators());
            }
        }
        return all;
    }
}
