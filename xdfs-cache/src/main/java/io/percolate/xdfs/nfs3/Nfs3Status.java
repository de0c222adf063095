package io.percolate.xdfs.nfs3;

import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.security.AccessControlException;

import java.io.FileNotFoundException;
import java.io.IOException;

/** NFSv3 status codes (RFC 1813 section 2.6) and the Hadoop exceptions callers expect for them. */
final class Nfs3Status {

    static final int OK = 0;
    static final int PERM = 1;
    static final int NOENT = 2;
    static final int ACCES = 13;
    static final int EXIST = 17;
    static final int NOTDIR = 20;
    static final int ISDIR = 21;
    static final int NOTEMPTY = 66;
    static final int STALE = 70;
    /** The server is busy (for example flushing writes): try again later. */
    static final int JUKEBOX = 10008;

    private Nfs3Status() {
    }

    static IOException toException(int status, String operation, String path) {
        String what = operation + " " + path + ": ";
        return switch (status) {
            case NOENT -> new FileNotFoundException(what + "no such file or directory");
            case PERM, ACCES -> new AccessControlException(what + "permission denied by the NFS server (status "
                    + status + ")");
            case EXIST -> new FileAlreadyExistsException(what + "already exists");
            case NOTDIR -> new ParentNotDirectoryException(what + "a path component is not a directory");
            case ISDIR -> new PathIsDirectoryException(path);
            case NOTEMPTY -> new PathIsNotEmptyDirectoryException(path);
            default -> new IOException(what + "NFS error " + status + name(status));
        };
    }

    private static String name(int status) {
        return switch (status) {
            case 5 -> " (I/O error)";
            case 28 -> " (no space left)";
            case 30 -> " (read-only file system)";
            case STALE -> " (stale file handle)";
            case 10001 -> " (bad file handle)";
            case 10003 -> " (bad cookie)";
            case JUKEBOX -> " (server busy)";
            default -> "";
        };
    }
}
