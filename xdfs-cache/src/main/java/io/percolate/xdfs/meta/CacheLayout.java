package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Where cache blocks live: {@code <dir>/<fingerprint id>/<block index>.<crc32c>}, the CRC32C (8 hex
 * digits) of the bytes copied from the backing store, so the listing that rebuilds the index also
 * gives what the optional content check compares against; a plain {@code <block index>} (a block
 * with no checksum recorded) is read too. A block is written under a hidden temporary name in the
 * same directory and renamed into place when complete, so a reader or a rebuilt index never sees
 * half a block.
 */
public final class CacheLayout {

    private static final String TEMP_PREFIX = ".";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final String CHECKSUM_SEPARATOR = ".";
    private static final int CHECKSUM_DIGITS = 8;

    private final Path dir;

    public CacheLayout(Path dir) {
        this.dir = requireNonNull(dir, "dir");
    }

    public Path dir() {
        return dir;
    }

    public Path versionDir(String fingerprintId) {
        return new Path(dir, fingerprintId);
    }

    /** The complete block's file name, with the CRC32C of its bytes. */
    public Path blockFile(BlockKey key, long crc32c) {
        if (crc32c < 0 || crc32c > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("not a CRC32C: " + crc32c);
        }
        return new Path(versionDir(key.fingerprintId()), key.index() + CHECKSUM_SEPARATOR + String.format("%08x", crc32c));
    }

    /** A name no other writer uses: two processes may fill the same block at once. */
    public Path tempFile(BlockKey key) {
        return new Path(versionDir(key.fingerprintId()),
                TEMP_PREFIX + key.index() + "." + UUID.randomUUID() + TEMP_SUFFIX);
    }

    /** Whether {@code file} is a temporary file of block {@code key} (a copy in progress). */
    public boolean isTempOf(Path file, BlockKey key) {
        String name = file.getName();
        return name.startsWith(TEMP_PREFIX + key.index() + ".") && name.endsWith(TEMP_SUFFIX)
                && file.getParent() != null && file.getParent().getName().equals(key.fingerprintId());
    }

    /** A complete block file's name: the block, and the CRC32C of its bytes when recorded. */
    public record BlockName(BlockKey key, OptionalLong crc32c) {
        public BlockName {
            requireNonNull(key, "key");
            requireNonNull(crc32c, "crc32c");
        }
    }

    /** The block a complete cache file holds; empty for temporary files and foreign names. */
    public Optional<BlockName> parse(Path file) {
        String name = file.getName();
        Path parent = file.getParent();
        if (parent == null || name.isEmpty() || name.startsWith(TEMP_PREFIX)) {
            return Optional.empty();
        }
        int separator = name.indexOf(CHECKSUM_SEPARATOR);
        String index = separator < 0 ? name : name.substring(0, separator);
        String checksum = separator < 0 ? "" : name.substring(separator + 1);
        if (index.isEmpty() || !index.chars().allMatch(Character::isDigit)
                || (separator >= 0 && (checksum.length() != CHECKSUM_DIGITS || !checksum.chars().allMatch(CacheLayout::isHex)))) {
            return Optional.empty();
        }
        try {
            BlockKey key = new BlockKey(parent.getName(), Integer.parseInt(index));
            return Optional.of(new BlockName(key,
                    separator < 0 ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(checksum, 16))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static boolean isHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
}
