package io.percolate.xdfs.cache;

/** How one block copy ended, when it did not fail with an error. */
public enum FillOutcome {
    /** The block is now in the cache. */
    CACHED(CacheCounter.FILLS_COMPLETED),
    /** Someone had cached it already. */
    ALREADY_CACHED(CacheCounter.FILLS_ALREADY_CACHED),
    /** The file is no longer the version that was requested; nothing was kept. */
    SOURCE_CHANGED(CacheCounter.FILLS_SKIPPED_CHANGED),
    /** The file changed too recently for its fingerprint to be trusted; nothing was written. */
    SOURCE_TOO_YOUNG(CacheCounter.FILLS_SKIPPED_YOUNG),
    /** The cache is at capacity and everything in it is pinned; nothing was written. */
    NO_ROOM(CacheCounter.FILLS_SKIPPED_NO_ROOM),
    /** Another writer (a reader's tee, or the manager's copy) is writing the block now; nothing was written. */
    IN_PROGRESS(CacheCounter.FILLS_SKIPPED_IN_PROGRESS),
    /**
     * The file version's cache directory is not this process's to write (another user's), or is
     * wider than the file's read rights and not this process's to remove; nothing was written.
     */
    NOT_PERMITTED(CacheCounter.FILLS_SKIPPED_NOT_PERMITTED);

    private final CacheCounter counter;

    FillOutcome(CacheCounter counter) {
        this.counter = counter;
    }

    public CacheCounter counter() {
        return counter;
    }
}
