package io.percolate.xdfs.cache;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Counters of one xdfs file system instance; updated from reader and fill threads alike. */
public final class CacheCounters {

    private final EnumMap<CacheCounter, LongAdder> adders = new EnumMap<>(CacheCounter.class);

    public CacheCounters() {
        for (CacheCounter counter : CacheCounter.values()) {
            adders.put(counter, new LongAdder());
        }
    }

    public void add(CacheCounter counter, long delta) {
        adders.get(counter).add(delta);
    }

    public void increment(CacheCounter counter) {
        add(counter, 1);
    }

    public long get(CacheCounter counter) {
        return adders.get(counter).sum();
    }

    /** Every counter's current value, in declaration order. */
    public Map<CacheCounter, Long> snapshot() {
        EnumMap<CacheCounter, Long> values = new EnumMap<>(CacheCounter.class);
        adders.forEach((counter, adder) -> values.put(counter, adder.sum()));
        return values;
    }
}
