package io.percolate.xdfs.fs;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

/**
 * A local directory — an NFS mount — as xdfs's backing store: Hadoop's raw local file system (no
 * {@code .crc} side files next to other tools' data) whose file statuses come from one stat call.
 * Without Hadoop's native library, the raw local file system learns a file's permission, owner
 * and group by running {@code ls -ld}: a process per file, paid on every open of an xdfs file and
 * for every file of a listing.
 */
public class LocalExport extends RawLocalFileSystem {
    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        File local = pathToFile(path);
        return status(local, makeQualified(new Path(local.getPath())));
    }

    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        File local = pathToFile(path);
        if (!local.isDirectory()) {
            return new FileStatus[] {getFileStatus(path)};
        }
        String[] names = local.list();
        if (names == null) {
            throw new IOException("cannot list " + path);
        }
        List<FileStatus> statuses = new ArrayList<>(names.length);
        for (String name : names) {
            try {
                statuses.add(getFileStatus(new Path(path, name)));
            } catch (FileNotFoundException e) {
                // removed since the listing: not there any more
            }
        }
        return statuses.toArray(FileStatus[]::new);
    }

    private FileStatus status(File local, Path path) throws IOException {
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(local.toPath(), PosixFileAttributes.class);
        } catch (FileSystemException e) {
            // also a path through a regular file ("Not a directory"): it does not exist, as for java.io.File
            if (e instanceof NoSuchFileException || !local.exists()) {
                throw new FileNotFoundException("File " + path + " does not exist");
            }
            throw e;
        }
        return new FileStatus(a.size(), a.isDirectory(), 1, a.isDirectory() ? 0 : getDefaultBlockSize(path),
                a.lastModifiedTime().toMillis(), a.lastAccessTime().toMillis(), permission(a),
                a.owner().getName(), a.group().getName(), null, path);
    }

    private static FsPermission permission(PosixFileAttributes a) {
        int mode = 0;
        for (PosixFilePermission p : a.permissions()) {
            mode |= 1 << (8 - p.ordinal()); // OWNER_READ is ordinal 0, bit 8 (0400); OTHERS_EXECUTE bit 0
        }
        return new FsPermission((short) mode);
    }
}
