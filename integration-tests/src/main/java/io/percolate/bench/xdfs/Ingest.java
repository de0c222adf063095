package io.percolate.bench.xdfs;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** The ingest step of ingest-then-compute: copying data from the NFS filer into HDFS, as distcp would. */
public final class Ingest {
    private Ingest() {
    }

    /**
     * Copies every entry of {@code from} (files, or directories with all they hold) into
     * {@code to} on {@code hdfs}, {@code parallel} entries at a time (as that many distcp maps
     * would); returns the seconds it took.
     */
    public static double copy(Configuration conf, Path from, FileSystem hdfs, Path to, int parallel) throws Exception {
        FileSystem nfs = from.getFileSystem(conf);
        hdfs.mkdirs(to);
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        try {
            List<Future<Boolean>> copies = new ArrayList<>();
            for (FileStatus entry : nfs.listStatus(from)) {
                copies.add(pool.submit(() -> FileUtil.copy(nfs, entry.getPath(), hdfs,
                        new Path(to, entry.getPath().getName()), false, conf)));
            }
            for (Future<Boolean> copy : copies) {
                if (!copy.get()) {
                    throw new IOException("ingest copy from " + from + " failed");
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
