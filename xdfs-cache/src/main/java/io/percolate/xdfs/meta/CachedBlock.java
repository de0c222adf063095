package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A complete cache block on the cache file system.
 *
 * @param key which block of which file version
 * @param file its HDFS file
 * @param length bytes
 * @param node the DataNode holding its single replica; empty when the cache file system does not
 *     report one (a non-HDFS cache)
 */
public record CachedBlock(BlockKey key, Path file, long length, Optional<CacheNode> node) {

    public CachedBlock {
        requireNonNull(key, "key");
        requireNonNull(file, "file");
        requireNonNull(node, "node");
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
    }
}
