package io.percolate.timing;

import io.percolate.model.OperatorKind;
import io.percolate.timing.TimeModel.Feature;
import io.percolate.timing.TimeModel.Fit;
import org.apache.commons.math3.linear.SingularMatrixException;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Fits θ of eq. 5.4 by ordinary least squares (commons-math3), separately for every major
 * operator and phase with enough tasks, and once per phase over all operators (the pooled fit).
 *
 * <p>Bytes and records are nearly collinear in one workload, and least squares then trades them
 * off freely: a negative θ that fits the training range well predicts shorter tasks for more
 * data outside it. So a feature whose θ comes out negative is dropped (the one that moves the
 * fitted times most first) and the rest refitted; then, one at a time, the feature whose θ is
 * least significant while under two standard errors from zero. A feature that does not vary is
 * dropped before fitting; when the tasks are too few for the features (fewer than features + 2)
 * or the features are (nearly) linearly dependent, they are dropped in the order rows out, bytes
 * out, rows in, bytes in. With no feature left the fit is the mean time.
 */
public final class TimeModelTrainer {
    /** Fewest tasks a fit is made from. */
    public static final int MIN_SAMPLES = 3;
    /**
     * Below this (times √tasks) a column of spread-scaled features counts as a combination of the
     * others: about a correlation of 0.99995 with them.
     */
    static final double SINGULAR = 0.01;
    /** A θ this many standard errors from zero, or more, is kept (about 95 % two-sided with many tasks). */
    static final double MIN_T = 2;
    /** The share of the log-time error without contention a parallelism must take away to be believed. */
    static final double MIN_GAIN = 0.1;
    /** How much of that error a parallelism may leave beyond the best one's and still count as explaining as well. */
    static final double TIE = 0.001;
    /** Squared log-time error per task below which a fit counts as exact. */
    private static final double EXACT = 1e-12;
    /** Grid step between the tried parallelisms. */
    private static final double STEP = 1.05;

    private TimeModelTrainer() {
    }

    /**
     * The model of {@code samples}' times at full speed: each task's time divided by the slowdown
     * of the load it ran under ({@link ProcessorSharing}), for the parallelism K that best explains
     * the times. Tasks of one size that took longer when more ran beside them show K; without it a
     * fit averages contended and free tasks, and a forecast that slows a phase by the load it
     * expects counts the contention twice.
     *
     * <p>K is tried on a geometric grid below the largest load seen; each K's fits are scored by
     * the squared error of log time, their full-speed prediction slowed by each task's load
     * against what it took. Every fit keeps, for every K tried, the features it keeps without
     * contention: where K is poorly determined the score is nearly flat, and a feature one fit
     * kept at one K and dropped at the next would decide K. Every K below the smallest load
     * explains the times alike (the fits absorb a common factor), so of the K that explain them
     * about as well as the best, the largest, the least contention, is taken, and its fits are
     * then chosen afresh; a K that takes away too little of the error of no contention at all is
     * not believed.
     */
    public static TimeModel train(List<TaskSample> samples) {
        TimeModel none = trainAt(samples, Double.POSITIVE_INFINITY);
        double noneError = logError(none, samples);
        Map<Group, List<Feature>> held = new HashMap<>();
        none.fits().forEach(f -> held.put(new Group(f.operator(), f.phase()), List.copyOf(f.coefficients().keySet())));
        double maxLoad = samples.stream().mapToDouble(TaskSample::load).max().orElse(1);
        List<Double> tried = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        for (double k = 1; k < maxLoad; k *= STEP) {
            tried.add(k);
            errors.add(logError(new TimeModel(TimeModel.FORMAT_VERSION, fits(atFullSpeed(samples, k), held), k), samples));
        }
        double least = errors.stream().mapToDouble(Double::doubleValue).min().orElse(noneError);
        // times fitted exactly without contention leave nothing to explain: rounding is no gain
        double scale = Math.max(noneError, EXACT * samples.size());
        if (!(least < noneError - MIN_GAIN * scale)) {
            return none;
        }
        for (int i = tried.size() - 1; ; i--) {
            if (errors.get(i) <= least + TIE * scale) {
                return trainAt(samples, tried.get(i));
            }
        }
    }

    /**
     * Fits of the times the tasks would have taken at full speed where {@code parallelism} run at
     * once (infinite: no contention), for a K found on a larger history than {@code samples}: tasks
     * too few or too alike to show the cluster's contention then still come out in its unit.
     */
    public static TimeModel trainAt(List<TaskSample> samples, double parallelism) {
        // looser than the model's own rule: an infinite K is allowed here, and means no K at all
        if (!(parallelism >= 1)) {
            throw new IllegalArgumentException("parallelism must be >= 1 task, got " + parallelism);
        }
        return new TimeModel(TimeModel.FORMAT_VERSION, fits(atFullSpeed(samples, parallelism), Map.of()),
                Double.isInfinite(parallelism) ? null : parallelism);
    }

    /** The tasks with the times they would have taken where {@code parallelism} run at full speed. */
    private static List<TaskSample> atFullSpeed(List<TaskSample> samples, double parallelism) {
        return samples.stream().map(s -> new TaskSample(s.operator(), s.phase(), s.volume(),
                s.seconds() / ProcessorSharing.slowdown(s.load(), parallelism), s.load())).toList();
    }

    /** A fit's tasks: one operator's in one phase, or every operator's (null) for the pooled fit. */
    private record Group(OperatorKind operator, TaskPhase phase) {
    }

    /** Σ (log(predicted · slowdown of its load) − log(seconds))² over the tasks the model answers for. */
    private static double logError(TimeModel model, List<TaskSample> samples) {
        double error = 0;
        for (TaskSample s : samples) {
            OptionalDouble predicted = model.taskSeconds(s.operator(), s.phase(), s.volume());
            if (predicted.isPresent() && predicted.getAsDouble() > 0) {
                double miss = Math.log(predicted.getAsDouble() * model.slowdown(s.load())) - Math.log(s.seconds());
                error += miss * miss;
            }
        }
        return error;
    }

    /** One fit per group with enough tasks; a group in {@code held} keeps those features, the others choose theirs. */
    private static List<Fit> fits(List<TaskSample> samples, Map<Group, List<Feature>> held) {
        Map<OperatorKind, Map<TaskPhase, List<TaskSample>>> byOperator = new EnumMap<>(OperatorKind.class);
        Map<TaskPhase, List<TaskSample>> byPhase = new EnumMap<>(TaskPhase.class);
        for (TaskSample s : samples) {
            byOperator.computeIfAbsent(s.operator(), o -> new EnumMap<>(TaskPhase.class))
                    .computeIfAbsent(s.phase(), p -> new ArrayList<>()).add(s);
            byPhase.computeIfAbsent(s.phase(), p -> new ArrayList<>()).add(s);
        }
        List<Fit> fits = new ArrayList<>();
        byOperator.forEach((operator, phases) -> phases.forEach((phase, group) -> {
            if (group.size() >= MIN_SAMPLES) {
                fits.add(fit(operator, phase, group, held.get(new Group(operator, phase))));
            }
        }));
        byPhase.forEach((phase, group) -> {
            if (group.size() >= MIN_SAMPLES) {
                fits.add(fit(null, phase, group, held.get(new Group(null, phase))));
            }
        });
        return fits;
    }

    static Fit fit(OperatorKind operator, TaskPhase phase, List<TaskSample> group) {
        return fit(operator, phase, group, null);
    }

    /** @param held the features to keep whatever their θ (null: choose them as the class comment says) */
    private static Fit fit(OperatorKind operator, TaskPhase phase, List<TaskSample> group, List<Feature> held) {
        double[] y = group.stream().mapToDouble(TaskSample::seconds).toArray();
        double minSeconds = Arrays.stream(y).min().orElse(0);
        List<Feature> features = new ArrayList<>(Arrays.stream(Feature.values())
                .filter(f -> held == null ? varies(f, group) : held.contains(f)).toList());
        while (!features.isEmpty()) {
            if (group.size() < features.size() + 2) {
                features.remove(features.size() - 1); // too few tasks for this many θ
                continue;
            }
            double[] scale = features.stream().mapToDouble(f -> deviation(f, group)).toArray();
            double[] beta;
            double[] t = new double[features.size()];
            try {
                // columns in units of their spread, so one threshold tells near-collinear from independent
                OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression(SINGULAR * Math.sqrt(group.size()));
                ols.newSampleData(y, design(group, features, scale));
                beta = ols.estimateRegressionParameters();
                double[] errors = ols.estimateRegressionParametersStandardErrors();
                for (int i = 0; i < t.length; i++) {
                    t[i] = errors[i + 1] > 0 ? beta[i + 1] / errors[i + 1] : Double.POSITIVE_INFINITY;
                }
            } catch (SingularMatrixException e) {
                features.remove(features.size() - 1);
                continue;
            }
            for (int i = 0; i < features.size(); i++) {
                beta[i + 1] /= scale[i];
            }
            if (held == null) {
                Feature worst = mostNegative(features, beta, group);
                if (worst == null) {
                    worst = leastSignificant(features, t);
                }
                if (worst != null) {
                    features.remove(worst);
                    continue;
                }
            }
            Map<Feature, Double> theta = new LinkedHashMap<>();
            Map<Feature, Double> largest = new LinkedHashMap<>();
            for (int i = 0; i < features.size(); i++) {
                Feature f = features.get(i);
                theta.put(f, beta[i + 1]);
                largest.put(f, group.stream().mapToDouble(s -> f.of(s.volume())).max().orElse(0));
            }
            return new Fit(operator, phase, beta[0], theta, rSquared(y, group, beta[0], theta), group.size(), minSeconds,
                    largest);
        }
        double mean = Arrays.stream(y).average().orElse(0);
        return new Fit(operator, phase, mean, Map.of(), rSquared(y, group, mean, Map.of()), group.size(), minSeconds,
                Map.of());
    }

    private static boolean varies(Feature f, List<TaskSample> group) {
        double first = f.of(group.get(0).volume());
        return group.stream().anyMatch(s -> f.of(s.volume()) != first);
    }

    private static double[][] design(List<TaskSample> group, List<Feature> features, double[] scale) {
        double[][] x = new double[group.size()][features.size()];
        for (int r = 0; r < group.size(); r++) {
            for (int c = 0; c < features.size(); c++) {
                x[r][c] = features.get(c).of(group.get(r).volume()) / scale[c];
            }
        }
        return x;
    }

    private static double deviation(Feature f, List<TaskSample> group) {
        double mean = group.stream().mapToDouble(s -> f.of(s.volume())).average().orElse(0);
        double variance = group.stream().mapToDouble(s -> (f.of(s.volume()) - mean) * (f.of(s.volume()) - mean))
                .average().orElse(0);
        return variance > 0 ? Math.sqrt(variance) : 1;
    }

    /** The feature whose negative θ moves the fitted times most over the training range, if any θ is negative. */
    private static Feature mostNegative(List<Feature> features, double[] beta, List<TaskSample> group) {
        Comparator<Integer> byEffect = Comparator.comparingDouble(i -> beta[i + 1] * range(features.get(i), group));
        return java.util.stream.IntStream.range(0, features.size()).boxed()
                .filter(i -> beta[i + 1] < 0)
                .min(byEffect)
                .map(features::get)
                .orElse(null);
    }

    /**
     * The feature whose θ is least distinguishable from noise, if its t-statistic is under
     * {@link #MIN_T}: a θ fitted to the scatter of a few tasks' times extrapolates that scatter
     * to every larger task.
     */
    private static Feature leastSignificant(List<Feature> features, double[] t) {
        int weakest = -1;
        for (int i = 0; i < t.length; i++) {
            if (!(t[i] >= MIN_T) && (weakest < 0 || !(t[i] >= t[weakest]))) {
                weakest = i;
            }
        }
        return weakest < 0 ? null : features.get(weakest);
    }

    private static double range(Feature f, List<TaskSample> group) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (TaskSample s : group) {
            lo = Math.min(lo, f.of(s.volume()));
            hi = Math.max(hi, f.of(s.volume()));
        }
        return hi - lo;
    }

    /** 1 − SS_res / SS_tot of the fit on its own training tasks (before the lower bound). */
    private static double rSquared(double[] y, List<TaskSample> group, double intercept, Map<Feature, Double> theta) {
        double mean = Arrays.stream(y).average().orElse(0);
        double residual = 0;
        double total = 0;
        for (int i = 0; i < y.length; i++) {
            double fitted = intercept;
            for (Map.Entry<Feature, Double> c : theta.entrySet()) {
                fitted += c.getValue() * c.getKey().of(group.get(i).volume());
            }
            residual += (y[i] - fitted) * (y[i] - fitted);
            total += (y[i] - mean) * (y[i] - mean);
        }
        return total == 0 ? (residual == 0 ? 1 : 0) : 1 - residual / total;
    }
}
