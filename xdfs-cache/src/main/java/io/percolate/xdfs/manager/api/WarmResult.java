package io.percolate.xdfs.manager.api;

/**
 * What a request to warm a path found and did.
 *
 * @param files files under the path
 * @param blocks their cache blocks
 * @param cached blocks already cached
 * @param queued blocks queued for copying now
 * @param dropped blocks not queued because the transfer queue was full (warm again later)
 */
public record WarmResult(int files, int blocks, int cached, int queued, int dropped) {
}
