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
    /** Separates the target DataNode's host, ip and port in a temporary file's name. */
    private static final String TARGET = "@";

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

    /**
     * A name no other writer uses (two processes may fill the same block at once), naming the
     * DataNode the copy goes to when there is one: {@code .<index>.<uuid>@<host>@<ip>@<port>.tmp}.
     * HDFS lists no location for a file whose only block is still being written, so the name is
     * how any process listing the directory learns where the block will be.
     */
    public Path tempFile(BlockKey key, Optional<CacheNode> target) {
        String where = target.filter(CacheLayout::nameable)
                .map(node -> TARGET + node.host() + TARGET + node.name().replace(':', TARGET.charAt(0)))
                .orElse("");
        return new Path(versionDir(key.fingerprintId()),
                TEMP_PREFIX + key.index() + "." + UUID.randomUUID() + where + TEMP_SUFFIX);
    }

    /** A block copy in progress, as its temporary file names it. */
    public record TempBlock(BlockKey key, Optional<CacheNode> target) {
        public TempBlock {
            requireNonNull(key, "key");
            requireNonNull(target, "target");
        }
    }

    /** The block a temporary file is being written for, and its DataNode if named; empty for other files. */
    public Optional<TempBlock> parseTemp(Path file) {
        String name = file.getName();
        Path parent = file.getParent();
        if (parent == null || !name.startsWith(TEMP_PREFIX) || !name.endsWith(TEMP_SUFFIX)) {
            return Optional.empty();
        }
        String body = name.substring(TEMP_PREFIX.length(), name.length() - TEMP_SUFFIX.length());
        int dot = body.indexOf('.');
        if (dot <= 0 || !body.substring(0, dot).chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        String[] parts = body.substring(dot + 1).split(TARGET, -1);
        Optional<CacheNode> target = Optional.empty();
        if (parts.length == 4) {
            try {
                target = Optional.of(new CacheNode(parts[2] + ":" + parts[3], parts[1]));
            } catch (IllegalArgumentException e) {
                target = Optional.empty(); // a mangled hint: the copy is still in progress
            }
        }
        try {
            return Optional.of(new TempBlock(new BlockKey(parent.getName(), Integer.parseInt(body.substring(0, dot))),
                    target));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code file} is a temporary file of block {@code key} (a copy in progress). */
    public boolean isTempOf(Path file, BlockKey key) {
        return parseTemp(file).map(temp -> temp.key().equals(key)).orElse(false);
    }

    /** A node whose host and address fit a file name: no separator, no IPv6 colons. */
    private static boolean nameable(CacheNode node) {
        String ip = node.name().substring(0, node.name().lastIndexOf(':'));
        return !(node.host() + ip).matches(".*[@:/\\s].*") && !node.host().isEmpty();
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
