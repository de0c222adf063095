package io.percolate.timing;

import io.percolate.model.JobEstimate;
import io.percolate.model.OperatorKind;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

import static java.util.Objects.requireNonNull;

/**
 * The trained task-time model (dissertation eq. 5.4): a task's seconds are θ₀ + Σ θ_f·x_f over
 * the features x of what it handles, with θ fitted per major operator and phase
 * ({@link TimeModelTrainer}). A pooled fit per phase, over every operator, answers for an
 * operator the training data lacked, and for a task far larger than its own operator's fit saw
 * ({@link #EXTRAPOLATION}). File format: {@code selectivity/TIMING.md}.
 *
 * @param version     format version of the model file
 * @param fits        one per (operator, phase) trained, plus the pooled ones
 * @param parallelism how many tasks the training history's cluster ran at full speed; the fits
 *                    then give a task's time at full speed, its history time divided by the
 *                    {@linkplain ProcessorSharing slowdown} of the load it ran under, and whoever
 *                    forecasts a phase multiplies in the slowdown of the load it expects. Null
 *                    when the history showed no contention (or the file predates this): the fits
 *                    give times as the history ran them
 */
public record TimeModel(int version, List<Fit> fits, Double parallelism) {
    public static final int FORMAT_VERSION = 1;
    /**
     * How far beyond its training tasks a fit extrapolates: a task whose feature exceeds this many
     * times the largest value that feature had in training is left to the next fit (or the
     * throughput defaults). A θ fitted on a few small tasks is mostly their scatter, and multiplied
     * by an over-estimated volume it predicts minutes for a task of seconds; within a few times
     * the training range it still follows a workload that grows.
     */
    public static final double EXTRAPOLATION = 4;

    /** What the model reads of a task's volume, in units that keep θ of similar magnitude. */
    public enum Feature {
        INPUT_MB(v -> v.inputBytes() / 1e6),
        INPUT_MROWS(v -> v.inputRecords() / 1e6),
        OUTPUT_MB(v -> v.outputBytes() / 1e6),
        OUTPUT_MROWS(v -> v.outputRecords() / 1e6);

        private final ToDoubleFunction<TaskVolume> value;

        Feature(ToDoubleFunction<TaskVolume> value) {
            this.value = value;
        }

        double of(TaskVolume volume) {
            return value.applyAsDouble(volume);
        }
    }

    /**
     * One fitted equation.
     *
     * @param operator     the jobs' major operator; null for the pooled fit of the phase
     * @param intercept    θ₀, seconds: what a task costs before it reads anything (JVM, set-up)
     * @param coefficients θ_f of the features kept, seconds per unit; the trainer leaves a feature
     *                     out when it does not vary, when its θ came out negative, or when the tasks
     *                     were too few for it (see {@link TimeModelTrainer})
     * @param rSquared     share of the training times' variance the fit explains
     * @param samples      tasks it was fitted on
     * @param minSeconds   the shortest training task: no prediction goes below it
     * @param largest      the largest value of each kept feature among the training tasks, which
     *                     bounds the volumes the fit answers for ({@link #covers}); a feature
     *                     missing here (a file written before it was kept) is unbounded
     */
    public record Fit(OperatorKind operator, TaskPhase phase, double intercept, Map<Feature, Double> coefficients,
                      double rSquared, int samples, double minSeconds, Map<Feature, Double> largest) {
        public Fit {
            requireNonNull(phase, "phase");
            coefficients = ordered(coefficients);
            largest = ordered(largest == null ? Map.of() : largest);
            if (!Double.isFinite(intercept) || coefficients.values().stream().anyMatch(c -> !Double.isFinite(c))) {
                throw new IllegalArgumentException("θ must be finite: " + intercept + " " + coefficients);
            }
            if (samples < 1 || !(minSeconds >= 0) || Double.isInfinite(minSeconds)) {
                throw new IllegalArgumentException("a fit needs samples and a finite shortest time");
            }
            if (largest.values().stream().anyMatch(x -> !(x >= 0))) {
                throw new IllegalArgumentException("largest feature values must be >= 0: " + largest);
            }
        }

        /** Whether the task is within {@link #EXTRAPOLATION} times the largest training value of every feature kept. */
        public boolean covers(TaskVolume volume) {
            for (Feature f : coefficients.keySet()) {
                Double max = largest.get(f);
                if (max != null && f.of(volume) > EXTRAPOLATION * max) {
                    return false;
                }
            }
            return true;
        }

        /** eq. 5.4: θ₀ + Σ θ_f·x_f, never below the shortest task trained on. */
        public double seconds(TaskVolume volume) {
            double t = intercept;
            for (Map.Entry<Feature, Double> c : coefficients.entrySet()) {
                t += c.getValue() * c.getKey().of(volume);
            }
            return Math.max(minSeconds, t);
        }
    }

    public TimeModel {
        fits = List.copyOf(fits);
        if (version < 1) {
            throw new IllegalArgumentException("model format version must be >= 1, got " + version);
        }
        JobEstimate.requireParallelism(parallelism);
    }

    /** A model of times as the history ran them, no contention taken out. */
    public TimeModel(List<Fit> fits) {
        this(FORMAT_VERSION, fits, null);
    }

    /** How much slower than {@link #taskSeconds} a phase's tasks run with {@code load} tasks on the cluster. */
    public double slowdown(double load) {
        return parallelism == null ? 1 : ProcessorSharing.slowdown(load, parallelism);
    }

    /** The fit for the operator and phase, else the phase's pooled fit. */
    public Optional<Fit> fit(OperatorKind operator, TaskPhase phase) {
        Optional<Fit> own = fits.stream().filter(f -> f.phase() == phase && f.operator() == operator).findFirst();
        return own.isPresent() ? own : pooled(phase);
    }

    /**
     * The fit that answers for this task: the operator's own if it {@linkplain Fit#covers covers}
     * the task, else the phase's pooled fit if that does; empty otherwise.
     */
    public Optional<Fit> fit(OperatorKind operator, TaskPhase phase, TaskVolume volume) {
        Optional<Fit> own = fits.stream().filter(f -> f.phase() == phase && f.operator() == operator)
                .filter(f -> f.covers(volume)).findFirst();
        return own.isPresent() ? own : pooled(phase).filter(f -> f.covers(volume));
    }

    private Optional<Fit> pooled(TaskPhase phase) {
        return fits.stream().filter(f -> f.phase() == phase && f.operator() == null).findFirst();
    }

    /** A task's predicted seconds; empty when no fit of the phase answers for it. */
    public OptionalDouble taskSeconds(OperatorKind operator, TaskPhase phase, TaskVolume volume) {
        return fit(operator, phase, volume).map(f -> OptionalDouble.of(f.seconds(volume))).orElse(OptionalDouble.empty());
    }

    /** In the features' order, so files and printouts list them alike on every run. */
    private static Map<Feature, Double> ordered(Map<Feature, Double> byFeature) {
        return byFeature.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(byFeature));
    }
}
