package io.percolate.xdfs.cache;

/**
 * What the cache tier counts. Declared as data so that a report (and, later, the metrics2 source)
 * lists every counter without knowing them one by one.
 */
public enum CacheCounter {
    BLOCK_READS_FROM_CACHE("block reads served from a cached copy"),
    BLOCK_READS_FOLLOWING_COPIES("block reads served by following another writer's copy of the block as it was made"),
    COPIES_LEFT("copies in progress a reader stopped following (stalled or abandoned) to read the backing store"),
    BLOCK_READS_FROM_BACKING("block reads served from the backing store"),
    BYTES_FROM_CACHE("bytes read from cached copies"),
    BYTES_FROM_BACKING("bytes read from the backing store by readers"),
    CACHE_READ_FAILURES("cached copies or cache listings that failed and fell back to the backing store"),
    FILLS_QUEUED("blocks queued for caching"),
    FILLS_DROPPED("blocks not queued because the fill queue was full"),
    FILLS_COMPLETED("blocks copied into the cache"),
    FILLS_FROM_READS("blocks cached from the bytes a reader fetched, without reading the backing store again"),
    FILLS_ALREADY_CACHED("queued blocks found already cached"),
    FILLS_SKIPPED_CHANGED("fills abandoned because the file changed"),
    FILLS_SKIPPED_YOUNG("fills skipped because the file changed too recently"),
    FILLS_SKIPPED_NO_ROOM("fills skipped because the cache was full of pinned blocks"),
    FILLS_SKIPPED_IN_PROGRESS("fills skipped because another writer was writing the block"),
    FILLS_SKIPPED_NOT_PERMITTED("fills skipped because the file's cache directory was not this user's to write"),
    UNTRUSTED_BLOCKS("cached blocks ignored because their writer was neither the reader, the file's owner nor trusted"),
    FILLS_FAILED("fills that failed with an error"),
    BYTES_FILLED("bytes copied into the cache"),
    PLACEMENT_MISSES("cache blocks HDFS placed elsewhere than the chosen DataNode"),
    EVICTIONS("cache blocks evicted to stay under the capacity"),
    BYTES_EVICTED("bytes of evicted cache blocks"),
    INVALIDATIONS("cached file versions removed because the file changed or vanished, or on request"),
    CONTENT_BYTES_CHECKED("backing-store bytes the content check read to compare with cached blocks"),
    CONTENT_MISMATCHES("cached blocks whose backing-store bytes changed with the file's length and mtime kept");

    private final String description;

    CacheCounter(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
