package io.percolate.xdfs.meta;

import org.apache.hadoop.fs.Path;

import java.util.Optional;
import java.util.UUID;

import static java.util.Objects.requireNonNull;

/**
 * Where cache blocks live: {@code <dir>/<fingerprint id>/<block index>}. A block is written under
 * a hidden temporary name in the same directory and renamed into place when complete, so a reader
 * or a rebuilt index never sees half a block.
 */
public final class CacheLayout {

    private static final String TEMP_PREFIX = ".";
    private static final String TEMP_SUFFIX = ".tmp";

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

    public Path blockFile(BlockKey key) {
        return new Path(versionDir(key.fingerprintId()), Integer.toString(key.index()));
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

    /** The block a complete cache file holds; empty for temporary files and foreign names. */
    public Optional<BlockKey> parse(Path file) {
        String name = file.getName();
        Path parent = file.getParent();
        if (parent == null || name.isEmpty() || name.startsWith(TEMP_PREFIX)) {
            return Optional.empty();
        }
        for (int i = 0; i < name.length(); i++) {
            if (!Character.isDigit(name.charAt(i))) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(new BlockKey(parent.getName(), Integer.parseInt(name)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
