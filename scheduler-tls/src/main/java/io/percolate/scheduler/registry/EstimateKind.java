package io.percolate.scheduler.registry;

import io.percolate.model.JobEstimate;
import io.percolate.model.JobEstimate.Confidence;

import static java.util.Objects.requireNonNull;

/**
 * What the scheduler learns a separate bias for: estimates made the same way are off by about the
 * same factor, estimates made differently are not. Two things set how an estimate's task times were
 * made: its {@link Confidence} (statistics or fixed selectivities, a trained model or defaults) and
 * whether a contention-aware time model timed every task, which puts its times at full speed in
 * that model's K. The confidence alone does not say the second: a LOW estimate may be timed by
 * throughput defaults or by a trained model. Which K does not count: a model retrained with
 * another K keeps the scale its predecessor's jobs taught.
 *
 * @param confidence  the estimate's level
 * @param atFullSpeed whether its task times are at full speed in a time model's K (not so for
 *                    throughput defaults, nor for a model trained without contention)
 */
record EstimateKind(Confidence confidence, boolean atFullSpeed) {
    EstimateKind {
        requireNonNull(confidence, "confidence");
    }

    static EstimateKind of(JobEstimate e) {
        return new EstimateKind(e.confidence(), e.parallelism() != null);
    }
}
