package io.percolate.timing;

import io.percolate.model.OperatorKind;

import static java.util.Objects.requireNonNull;

/**
 * One finished task, a row of the time model's training data: the major operator of its job,
 * its phase, what it handled, how long its successful attempt ran and how many tasks ran on
 * the cluster meanwhile.
 *
 * @param load the mean number of tasks running on the cluster while it ran, itself included
 *             (1 when it ran alone or nothing else is known): a task that shared the cores with
 *             others took longer than what it handled says ({@link ProcessorSharing})
 */
public record TaskSample(OperatorKind operator, TaskPhase phase, TaskVolume volume, double seconds, double load) {
    public TaskSample {
        requireNonNull(operator, "operator");
        requireNonNull(phase, "phase");
        requireNonNull(volume, "volume");
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("a task runs a finite, positive time, got " + seconds);
        }
        if (!(load >= 1) || Double.isInfinite(load)) {
            throw new IllegalArgumentException("a task runs beside a finite load of at least itself, got " + load);
        }
    }

    /** A task that ran alone, or under a load not known. */
    public TaskSample(OperatorKind operator, TaskPhase phase, TaskVolume volume, double seconds) {
        this(operator, phase, volume, seconds, 1);
    }
}
