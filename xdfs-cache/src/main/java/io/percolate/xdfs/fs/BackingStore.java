package io.percolate.xdfs.fs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;
import java.net.URI;

/** Opens the store xdfs serves, for the file system and the metadata manager alike. */
public final class BackingStore {

    private BackingStore() {
    }

    /** A local directory (an NFS mount) as a {@link LocalExport}, else its own file system, as a new instance. */
    public static FileSystem open(URI backingUri, Configuration conf) throws IOException {
        if (!"file".equals(backingUri.getScheme())) {
            return FileSystem.newInstance(backingUri, conf);
        }
        LocalExport local = new LocalExport();
        local.initialize(URI.create("file:///"), conf);
        return local;
    }
}
