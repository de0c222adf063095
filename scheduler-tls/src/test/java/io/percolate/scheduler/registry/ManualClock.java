package io.percolate.scheduler.registry;

import org.apache.hadoop.yarn.util.Clock;

/**
 * A clock the test moves by hand. (YARN's ControlledClock lives in hadoop-yarn-common's test
 * jar, which is not on this module's classpath.)
 */
final class ManualClock implements Clock {
    private long now;

    ManualClock(long start) {
        this.now = start;
    }

    @Override
    public long getTime() {
        return now;
    }

    void advance(long millis) {
        now += millis;
    }

    void set(long millis) {
        now = millis;
    }
}
