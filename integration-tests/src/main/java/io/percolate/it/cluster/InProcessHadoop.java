package io.percolate.it.cluster;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

import java.io.IOException;

/** HDFS and MapReduce running in this JVM, as clients (Hive, the hook, benchmarks) reach them. */
public interface InProcessHadoop extends AutoCloseable {

    /** The configuration clients use. */
    Configuration conf();

    /** The cluster's HDFS. */
    FileSystem fileSystem() throws IOException;

    @Override
    void close();
}
