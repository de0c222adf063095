package io.percolate.scheduler.registry;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

final class TestDecayingMean {
    @Test
    void thePrior_standsOnlyUntilTheFirstObservation() {
        DecayingMean mean = new DecayingMean(0.2);
        assertEquals(10, mean.orElse(10));
        mean.add(4);
        assertEquals(4, mean.orElse(10), 1e-12, "no weight left on the prior");
    }

    @Test
    void theNewest_weighsOneAgainstTheDecayOfAllBefore() {
        DecayingMean mean = new DecayingMean(0.2);
        mean.add(4);
        mean.add(7);
        mean.add(1);
        assertEquals((0.64 * 4 + 0.8 * 7 + 1) / (0.64 + 0.8 + 1), mean.orElse(0), 1e-12);
    }

    @Test
    void sizes_poolTheObservations() {
        DecayingMean pooled = new DecayingMean(0.2);
        pooled.add(0.5, 80); // 40 of 80
        pooled.add(2, 10);   // 20 of 10
        assertEquals((0.8 * 40 + 20) / (0.8 * 80 + 10), pooled.orElse(1), 1e-12);
    }

    @Test
    void nonFiniteValuesAndEmptySizes_areNotObservations() {
        DecayingMean mean = new DecayingMean(0.2);
        mean.add(Double.NaN);
        mean.add(Double.POSITIVE_INFINITY);
        mean.add(3, 0);
        assertEquals(10, mean.orElse(10));
    }
}
