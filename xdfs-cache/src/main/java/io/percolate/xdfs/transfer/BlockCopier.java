package io.percolate.xdfs.transfer;

import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.cache.FillOutcome;
import io.percolate.xdfs.cache.Throttle;

import java.io.IOException;

/** Copies one block into the cache under a throttle; {@code BlockWriter::write} in production. */
@FunctionalInterface
public interface BlockCopier {

    FillOutcome copy(BlockRequest request, Throttle throttle) throws IOException;
}
