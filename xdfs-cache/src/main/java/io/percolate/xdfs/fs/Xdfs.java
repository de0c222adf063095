package io.percolate.xdfs.fs;

import io.percolate.xdfs.config.XdfsConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.DelegateToFileSystem;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URI;

/**
 * xdfs for {@code FileContext} (and so for YARN's resource localisation): register with
 * {@code fs.AbstractFileSystem.xdfs.impl = io.percolate.xdfs.fs.Xdfs}.
 */
public final class Xdfs extends DelegateToFileSystem {

    public Xdfs(URI uri, Configuration conf) throws IOException, URISyntaxException {
        super(uri, new XdfsFileSystem(), conf, XdfsConfig.SCHEME, false);
    }
}
