package io.percolate.xdfs.fs;

import io.percolate.xdfs.config.XdfsConfig;
import org.apache.hadoop.fs.PathIOException;

/** A change refused because the xdfs file system is configured read-only. */
public final class XdfsReadOnlyException extends PathIOException {

    private static final long serialVersionUID = 1L;

    public XdfsReadOnlyException(String operation, String path) {
        super(path, operation + " refused: this xdfs file system is read-only ("
                + XdfsConfig.READ_ONLY + "=true); change the backing store directly or turn the key off");
    }
}
