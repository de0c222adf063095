package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.BlockKey;
import io.percolate.xdfs.meta.Fingerprint;
import org.apache.hadoop.fs.Path;

import static java.util.Objects.requireNonNull;

/**
 * A request to copy block {@code index} of one file version from the backing store into the cache.
 *
 * @param source the file on the backing store
 * @param version the version the requester read; the copy is abandoned if the file is no longer it
 * @param index the block
 */
public record BlockRequest(Path source, Fingerprint version, int index) {

    public BlockRequest {
        requireNonNull(source, "source");
        requireNonNull(version, "version");
        version.block(index); // range check
    }

    public BlockKey key() {
        return version.block(index);
    }

    public long offset() {
        return version.blockOffset(index);
    }

    public long length() {
        return version.blockLength(index);
    }
}
