package io.percolate.hive.extract;

import org.apache.hadoop.hive.ql.exec.ConditionalTask;
import org.apache.hadoop.hive.ql.exec.Task;
import org.apache.hadoop.hive.ql.exec.mr.ExecDriver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hive's task graph reduced to MapReduce jobs. Non-MapReduce tasks (moves, statistics, local
 * hash-table builds) vanish, with their edges passed through; the branches of a
 * {@link ConditionalTask} (map-join variants and the common-join backup, of which only one
 * runs) become one job group.
 */
final class TaskGraph {

    /** One job of the query: a MapReduce task, or the alternatives of a conditional task. */
    record JobGroup(ExecDriver representative, List<ExecDriver> alternatives) {
        List<ExecDriver> members() {
            List<ExecDriver> all = new ArrayList<>(alternatives);
            all.add(0, representative);
            return all;
        }
    }

    private final Map<Task<?>, JobGroup> groupOf = new IdentityHashMap<>();
    private final Map<Task<?>, ConditionalTask> branchOwner = new IdentityHashMap<>();
    private final List<JobGroup> groups = new ArrayList<>();

    TaskGraph(List<Task<?>> rootTasks) {
        Set<Task<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Task<?>> todo = new ArrayDeque<>(rootTasks);
        while (!todo.isEmpty()) {
            Task<?> task = todo.poll();
            if (!seen.add(task)) {
                continue;
            }
            if (task instanceof ConditionalTask conditional) {
                addConditional(conditional);
                todo.addAll(conditional.getListTasks());
            } else if (task instanceof ExecDriver mr && !groupOf.containsKey(mr)) {
                addGroup(new JobGroup(mr, List.of()));
            }
            if (task.getChildTasks() != null) {
                todo.addAll(task.getChildTasks());
            }
        }
    }

    List<JobGroup> groups() {
        return groups;
    }

    /** The groups a job must wait for: the nearest MapReduce ancestors in Hive's task graph. */
    Set<JobGroup> upstream(JobGroup group) {
        Set<JobGroup> result = new LinkedHashSet<>();
        for (ExecDriver member : group.members()) {
            collectUpstream(member, result, Collections.newSetFromMap(new IdentityHashMap<>()));
        }
        result.remove(group);
        return result;
    }

    private void collectUpstream(Task<?> task, Set<JobGroup> out, Set<Task<?>> visited) {
        List<Task<?>> parents = new ArrayList<>();
        if (task.getParentTasks() != null) {
            parents.addAll(task.getParentTasks());
        }
        ConditionalTask owner = branchOwner.get(task);
        if (owner != null) {
            parents.add(owner);
        }
        for (Task<?> parent : parents) {
            if (!visited.add(parent)) {
                continue;
            }
            JobGroup g = groupOf.get(parent);
            if (g != null) {
                out.add(g);
            } else {
                collectUpstream(parent, out, visited);
            }
        }
    }

    /**
     * A conditional's branches are map-join variants (a local hash-table task above a MapReduce
     * task) and a common-join backup. The backup is the representative: it does the most work,
     * so estimating it never understates the query.
     */
    private void addConditional(ConditionalTask conditional) {
        List<ExecDriver> branches = new ArrayList<>();
        for (Task<?> branch : conditional.getListTasks()) {
            branchOwner.put(branch, conditional);
            firstMapReduce(branch, branches);
        }
        if (branches.isEmpty()) {
            return;
        }
        ExecDriver backup = branches.stream().filter(b -> b.getWork().getReduceWork() != null)
                .reduce((a, b) -> b).orElse(branches.get(branches.size() - 1));
        List<ExecDriver> others = new ArrayList<>(branches);
        others.remove(backup);
        addGroup(new JobGroup(backup, others));
    }

    private static void firstMapReduce(Task<?> task, List<ExecDriver> out) {
        if (task instanceof ExecDriver mr) {
            out.add(mr);
        } else if (task.getChildTasks() != null) {
            for (Task<?> child : task.getChildTasks()) {
                firstMapReduce(child, out);
            }
        }
    }

    private void addGroup(JobGroup group) {
        groups.add(group);
        for (ExecDriver member : group.members()) {
            groupOf.put(member, group);
        }
    }
}
