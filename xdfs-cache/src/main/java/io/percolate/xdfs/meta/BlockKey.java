package io.percolate.xdfs.meta;

import static java.util.Objects.requireNonNull;

/**
 * One cache block: block {@code index} of the file version named {@code fingerprintId}.
 */
public record BlockKey(String fingerprintId, int index) {

    public BlockKey {
        requireNonNull(fingerprintId, "fingerprintId");
        if (fingerprintId.isEmpty() || fingerprintId.indexOf('/') >= 0) {
            throw new IllegalArgumentException("fingerprintId must be a plain name, got '" + fingerprintId + "'");
        }
        if (index < 0) {
            throw new IllegalArgumentException("index must be >= 0, got " + index);
        }
    }
}
