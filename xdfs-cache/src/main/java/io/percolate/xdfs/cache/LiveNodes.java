package io.percolate.xdfs.cache;

import io.percolate.xdfs.meta.CacheNode;

import java.io.IOException;
import java.util.List;

/** The DataNodes that can take cache blocks now. */
public interface LiveNodes {

    /** A cache file system that names no DataNodes (not HDFS): blocks go where it puts them. */
    LiveNodes NONE = List::of;

    List<CacheNode> live() throws IOException;
}
