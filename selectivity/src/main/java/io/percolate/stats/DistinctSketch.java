package io.percolate.stats;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.hll.Union;
import org.apache.datasketches.memory.Memory;

import java.util.Base64;
import java.util.Optional;

/**
 * An HLL distinct-count sketch (Apache DataSketches) and its stored form. Kept per column and
 * partition so that a table's distinct count is the sketches' union, not a guess from the
 * partitions' counts. Stored compact as HLL_4, base64.
 */
final class DistinctSketch {
    private final HllSketch sketch;

    DistinctSketch(int lgK) {
        this.sketch = new HllSketch(lgK, TgtHllType.HLL_4);
    }

    private DistinctSketch(HllSketch sketch) {
        this.sketch = sketch;
    }

    void update(ColumnType type, double key, String text) {
        if (type == ColumnType.STRING) {
            sketch.update(text);
        } else {
            sketch.update(key);
        }
    }

    double estimate() {
        return sketch.getEstimate();
    }

    String serialise() {
        return Base64.getEncoder().encodeToString(sketch.toCompactByteArray());
    }

    /** The sketch stored as {@code base64}; empty when it does not decode. */
    static Optional<DistinctSketch> deserialise(String base64) {
        try {
            return Optional.of(new DistinctSketch(HllSketch.heapify(Memory.wrap(Base64.getDecoder().decode(base64)))));
        } catch (RuntimeException e) {
            // a damaged sketch only costs the merge its exact union
            return Optional.empty();
        }
    }

    /** The union of two stored sketches, at the smaller precision of the two. */
    static Optional<String> union(String a, String b) {
        Optional<DistinctSketch> x = deserialise(a);
        Optional<DistinctSketch> y = deserialise(b);
        if (x.isEmpty() || y.isEmpty()) {
            return Optional.empty();
        }
        Union union = new Union(Math.min(x.get().sketch.getLgConfigK(), y.get().sketch.getLgConfigK()));
        union.update(x.get().sketch);
        union.update(y.get().sketch);
        return Optional.of(new DistinctSketch(union.getResult(TgtHllType.HLL_4)).serialise());
    }
}
