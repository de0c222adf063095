package io.percolate.timing;

import io.percolate.model.OperatorKind;

import static java.util.Objects.requireNonNull;

/**
 * One finished task, a row of the time model's training data: the major operator of its job,
 * its phase, what it handled and how long its successful attempt ran.
 */
public record TaskSample(OperatorKind operator, TaskPhase phase, TaskVolume volume, double seconds) {
    public TaskSample {
        requireNonNull(operator, "operator");
        requireNonNull(phase, "phase");
        requireNonNull(volume, "volume");
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("a task runs a finite, positive time, got " + seconds);
        }
    }
}
