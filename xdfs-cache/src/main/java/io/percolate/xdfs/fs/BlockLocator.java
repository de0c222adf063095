package io.percolate.xdfs.fs;

import io.percolate.xdfs.cache.BlockCache;
import io.percolate.xdfs.cache.BlockRequest;
import io.percolate.xdfs.meta.CacheNode;
import io.percolate.xdfs.meta.CachedBlock;
import io.percolate.xdfs.meta.Fingerprint;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Block locations of an xdfs file, one per cache block so that splits line up with cache blocks:
 * a cached block is where its replica is (locality for MapReduce and YARN comes from here); a block
 * being copied is on the DataNode it goes to, then where the backing store says (a task placed
 * there finds it cached, or soon will); any other block is where the backing store says, or on the
 * configured backing hosts. With prefetch on, locating an uncached block that nobody is copying
 * asks for it to be cached: split computation asks at a job's submission, so copies start while its
 * containers do (MixApart's transfer scheduler learns of a job when it is submitted).
 */
final class BlockLocator {

    private final FileSystem backing;
    private final BlockCache cache;
    private final List<String> backingHosts;
    private final boolean prefetch;

    BlockLocator(FileSystem backing, BlockCache cache, List<String> backingHosts, boolean prefetch) {
        this.backing = requireNonNull(backing, "backing");
        this.cache = requireNonNull(cache, "cache");
        this.backingHosts = List.copyOf(backingHosts);
        this.prefetch = prefetch;
    }

    BlockLocation[] locate(Path source, Fingerprint version, String owner, long start, long length) throws IOException {
        if (start < 0 || length < 0) {
            throw new IllegalArgumentException("Invalid start or len parameter: " + start + ", " + length);
        }
        if (start >= version.length()) {
            return new BlockLocation[0];
        }
        Map<Integer, CacheNode> inFlight = cache.refresh(version, owner);
        long blockSize = version.blockSize();
        int first = (int) (start / blockSize);
        long end = Math.min(version.length(), start + Math.max(1, length));
        int last = (int) ((end - 1) / blockSize);
        List<BlockLocation> locations = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            long offset = version.blockOffset(i);
            long blockLength = version.blockLength(i);
            Optional<CacheNode> node = cache.lookup(version.block(i)).flatMap(CachedBlock::node);
            if (node.isPresent()) {
                locations.add(new BlockLocation(new String[] {node.get().name()}, new String[] {node.get().host()},
                        offset, blockLength));
            } else {
                BlockLocation backed = uncached(source, offset, blockLength);
                CacheNode target = inFlight.get(i);
                if (target == null && prefetch) {
                    cache.request(new BlockRequest(source, version, i));
                }
                locations.add(target == null ? backed : new BlockLocation(
                        prepend(target.name(), backed.getNames()), prepend(target.host(), backed.getHosts()),
                        offset, blockLength));
            }
        }
        return locations.toArray(new BlockLocation[0]);
    }

    private static String[] prepend(String first, String[] rest) {
        Set<String> all = new LinkedHashSet<>();
        all.add(first);
        all.addAll(List.of(rest));
        return all.toArray(new String[0]);
    }

    private BlockLocation uncached(Path source, long offset, long length) throws IOException {
        if (!backingHosts.isEmpty()) {
            String[] hosts = backingHosts.toArray(new String[0]);
            return new BlockLocation(hosts, hosts, offset, length);
        }
        Set<String> names = new LinkedHashSet<>();
        Set<String> hosts = new LinkedHashSet<>();
        BlockLocation[] found = backing.getFileBlockLocations(source, offset, length);
        if (found != null) {
            for (BlockLocation location : found) {
                names.addAll(List.of(location.getNames()));
                hosts.addAll(List.of(location.getHosts()));
            }
        }
        return new BlockLocation(names.toArray(new String[0]), hosts.toArray(new String[0]), offset, length);
    }
}
