package io.percolate.xdfs.cache;

import java.io.InterruptedIOException;

/**
 * Paces one block copy: asked before each buffer is read from the backing store, it returns when
 * that many bytes may be read. This is where a transfer scheduler applies its bandwidth limits.
 */
@FunctionalInterface
public interface Throttle {

    /** Never waits. */
    Throttle NONE = bytes -> {
    };

    /** Returns when {@code bytes} more may be read from the backing store. */
    void admit(int bytes) throws InterruptedIOException;
}
