package io.percolate.xdfs.manager.api;

/**
 * What invalidating a path removed from the cache.
 *
 * @param versions file versions whose cached blocks were removed
 * @param blocks their blocks
 * @param deferred versions kept for now because a running job pins them (removed when it releases them)
 */
public record InvalidateResult(int versions, int blocks, int deferred) {
}
