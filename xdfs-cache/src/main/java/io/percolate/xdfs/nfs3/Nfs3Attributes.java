package io.percolate.xdfs.nfs3;

import java.io.IOException;

/** The parts of an NFSv3 fattr3 (RFC 1813 section 2.5) a Hadoop FileStatus needs. */
record Nfs3Attributes(int type, int mode, int uid, int gid, long size, long fileId, long atimeMs, long mtimeMs) {

    static final int REGULAR = 1;
    static final int DIRECTORY = 2;

    boolean isDirectory() {
        return type == DIRECTORY;
    }

    /** Reads a fattr3. */
    static Nfs3Attributes read(XdrIn in) throws IOException {
        int type = in.readInt();
        int mode = in.readInt();
        in.readInt(); // nlink
        int uid = in.readInt();
        int gid = in.readInt();
        long size = in.readHyper();
        in.readHyper(); // used
        in.skip(8); // rdev
        in.readHyper(); // fsid
        long fileId = in.readHyper();
        long atime = timeMs(in);
        long mtime = timeMs(in);
        timeMs(in); // ctime
        return new Nfs3Attributes(type, mode & 07777, uid, gid, size, fileId, atime, mtime);
    }

    /** Reads a post_op_attr: attributes if the server sent them, else null. */
    static Nfs3Attributes readOptional(XdrIn in) throws IOException {
        return in.readBoolean() ? read(in) : null;
    }

    /** Skips a wcc_data (pre-operation size and times, then post-operation attributes). */
    static void skipWcc(XdrIn in) throws IOException {
        if (in.readBoolean()) {
            in.skip(8 + 8 + 8);
        }
        readOptional(in);
    }

    private static long timeMs(XdrIn in) throws IOException {
        long seconds = in.readUnsigned();
        long nanos = in.readUnsigned();
        return seconds * 1000 + nanos / 1_000_000;
    }
}
