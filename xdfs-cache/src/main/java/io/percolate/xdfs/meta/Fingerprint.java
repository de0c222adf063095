package io.percolate.xdfs.meta;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import static java.util.Objects.requireNonNull;

/**
 * One version of a backing-store file, as the cache names it. Cache blocks live under
 * {@link #id()}, so a file that changed length or mtime gets a new id and can never be served from
 * an older version's blocks; the old blocks are garbage for eviction, never a stale read.
 * The block size is part of the version: blocks cut at another size are different objects.
 *
 * @param source the qualified backing-store path
 * @param length bytes, as the backing store reports them
 * @param modificationTime milliseconds, as the backing store reports them
 * @param blockSize bytes per cache block
 */
public record Fingerprint(String source, long length, long modificationTime, long blockSize) {

    private static final int ID_BYTES = 16;

    public Fingerprint {
        requireNonNull(source, "source");
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be >= 1, got " + blockSize);
        }
    }

    /** 32 hex digits of SHA-256 over every component; the cache directory name of this version. */
    public String id() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            // NUL separators: no path contains one, so distinct tuples never hash the same text
            String text = source + '\0' + length + '\0' + modificationTime + '\0' + blockSize;
            byte[] hash = digest.digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, ID_BYTES);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }

    public int blockCount() {
        return (int) ((length + blockSize - 1) / blockSize);
    }

    public long blockOffset(int index) {
        return index * blockSize;
    }

    public long blockLength(int index) {
        return Math.max(0, Math.min(blockSize, length - blockOffset(index)));
    }

    public BlockKey block(int index) {
        if (index < 0 || index >= blockCount()) {
            throw new IllegalArgumentException("block " + index + " outside [0, " + blockCount() + ") of " + source);
        }
        return new BlockKey(id(), index);
    }

    /** Same file version: what a reader checks against the store's current attributes. */
    public boolean sameVersion(long currentLength, long currentModificationTime) {
        return length == currentLength && modificationTime == currentModificationTime;
    }
}
