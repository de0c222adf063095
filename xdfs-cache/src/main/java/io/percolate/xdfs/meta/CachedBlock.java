package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;

import java.util.Optional;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A complete cache block on the cache file system.
 *
 * @param key which block of which file version
 * @param file its HDFS file
 * @param length bytes
 * @param node the DataNode holding its single replica; empty when the cache file system does not
 *     report one (a non-HDFS cache)
 * @param crc32c the CRC32C of the bytes copied from the backing store; empty for a block cached
 *     without one
 * @param writer the block file's owner: who wrote it, or the file's owner it was handed to
 */
public record CachedBlock(BlockKey key, Path file, long length, Optional<CacheNode> node, OptionalLong crc32c,
                          String writer) {

    public CachedBlock {
        requireNonNull(key, "key");
        requireNonNull(file, "file");
        requireNonNull(node, "node");
        requireNonNull(crc32c, "crc32c");
        requireNonNull(writer, "writer");
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
    }
}
