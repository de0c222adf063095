package io.percolate.xdfs.meta;

import java.net.InetSocketAddress;

import static java.util.Objects.requireNonNull;

/**
 * A DataNode holding cache blocks.
 *
 * @param name the DataNode's data-transfer address {@code ip:port}, as {@code BlockLocation.getNames()}
 *     reports it; unique even when several DataNodes share a host (mini clusters)
 * @param host the host name a NodeManager on that machine has, as {@code BlockLocation.getHosts()}
 *     reports it; what MapReduce matches for locality
 */
public record CacheNode(String name, String host) implements Comparable<CacheNode> {

    public CacheNode {
        requireNonNull(name, "name");
        requireNonNull(host, "host");
        int colon = name.lastIndexOf(':');
        if (colon <= 0 || colon == name.length() - 1) {
            throw new IllegalArgumentException("name must be host:port, got '" + name + "'");
        }
    }

    /** The address HDFS's favored-nodes hint matches first. */
    public InetSocketAddress transferAddress() {
        int colon = name.lastIndexOf(':');
        return new InetSocketAddress(name.substring(0, colon), Integer.parseInt(name.substring(colon + 1)));
    }

    @Override
    public int compareTo(CacheNode other) {
        return name.compareTo(other.name);
    }
}
