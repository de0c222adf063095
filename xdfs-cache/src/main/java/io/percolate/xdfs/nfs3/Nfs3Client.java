package io.percolate.xdfs.nfs3;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The NFSv3 procedures (RFC 1813) the nfs3:// file system uses, over one {@link RpcEndpoint}, all
 * as one AUTH_SYS identity. A reply with NFS3ERR_JUKEBOX (server busy) is retried within the
 * endpoint's retry policy for idempotent procedures; other failures become Hadoop's exceptions.
 */
final class Nfs3Client implements Closeable {

    static final int PROGRAM = 100003;
    static final int VERSION = 3;
    private static final int GETATTR = 1;
    private static final int LOOKUP = 3;
    private static final int ACCESS = 4;
    private static final int READ = 6;
    private static final int WRITE = 7;
    private static final int CREATE = 8;
    private static final int MKDIR = 9;
    private static final int REMOVE = 12;
    private static final int RMDIR = 13;
    private static final int RENAME = 14;
    private static final int READDIRPLUS = 17;
    private static final int FSINFO = 19;
    private static final int COMMIT = 21;
    private static final int MAX_HANDLE = 64;
    private static final int MAX_NAME = 4096;
    private static final int UNSTABLE = 0;
    private static final int CREATE_UNCHECKED = 0;
    private static final int CREATE_GUARDED = 1;
    private static final int DIR_COUNT = 8 * 1024;
    private static final int DIR_MAX = 64 * 1024;

    private final RpcEndpoint endpoint;
    private final AuthSys cred;
    private final RpcEndpoint.RetryPolicy retry;

    Nfs3Client(RpcEndpoint endpoint, AuthSys cred, RpcEndpoint.RetryPolicy retry) {
        this.endpoint = endpoint;
        this.cred = cred;
        this.retry = retry;
    }

    Nfs3Attributes getattr(byte[] fh, String path) throws IOException {
        XdrIn in = ok(call(GETATTR, new XdrOut().writeOpaque(fh), true), "GETATTR", path);
        return Nfs3Attributes.read(in);
    }

    /** LOOKUP of one name in a directory; null if it does not exist. */
    Entry lookup(byte[] dir, String name, String path) throws IOException {
        Reply reply = call(LOOKUP, dirOp(dir, name), true);
        if (reply.status == Nfs3Status.NOENT) {
            return null;
        }
        XdrIn in = ok(reply, "LOOKUP", path);
        byte[] fh = in.readOpaque(MAX_HANDLE);
        Nfs3Attributes attrs = Nfs3Attributes.readOptional(in);
        return new Entry(name, fh, attrs != null ? attrs : getattr(fh, path));
    }

    /** Every entry of a directory except "." and "..", with handles and attributes (READDIRPLUS). */
    List<Entry> list(byte[] dir, String path) throws IOException {
        List<Entry> entries = new ArrayList<>();
        long cookie = 0;
        byte[] verifier = new byte[8];
        boolean eof = false;
        while (!eof) {
            XdrOut args = new XdrOut().writeOpaque(dir).writeHyper(cookie).writeFixedOpaque(verifier)
                    .writeInt(DIR_COUNT).writeInt(DIR_MAX);
            XdrIn in = ok(call(READDIRPLUS, args, true), "READDIRPLUS", path);
            Nfs3Attributes.readOptional(in);
            verifier = in.readFixedOpaque(8);
            boolean any = false;
            while (in.readBoolean()) {
                any = true;
                in.readHyper(); // fileid
                String name = in.readString(MAX_NAME);
                cookie = in.readHyper();
                Nfs3Attributes attrs = Nfs3Attributes.readOptional(in);
                byte[] fh = in.readBoolean() ? in.readOpaque(MAX_HANDLE) : null;
                if (name.equals(".") || name.equals("..")) {
                    continue;
                }
                if (fh == null) { // the server may leave out handles: ask for this one
                    Entry e = lookup(dir, name, path + "/" + name);
                    if (e != null) {
                        entries.add(e);
                    }
                } else {
                    entries.add(new Entry(name, fh, attrs != null ? attrs : getattr(fh, path + "/" + name)));
                }
            }
            eof = in.readBoolean();
            if (!eof && !any) { // asking again from the same cookie would loop forever
                throw new IOException("READDIRPLUS " + path + ": server returned no entries and no end of directory");
            }
        }
        return entries;
    }

    /** ACCESS: which of the {@code wanted} rights ({@code ACCESS3_*} bits) the server grants this identity. */
    int access(byte[] fh, int wanted, String path) throws IOException {
        XdrIn in = ok(call(ACCESS, new XdrOut().writeOpaque(fh).writeInt(wanted), true), "ACCESS", path);
        Nfs3Attributes.readOptional(in);
        return in.readInt();
    }

    /** READ into {@code dst}: bytes read (fewer than asked at end of file), or -1 at end of file. */
    int read(byte[] fh, long offset, byte[] dst, int off, int len, String path) throws IOException {
        XdrIn in = ok(call(READ, new XdrOut().writeOpaque(fh).writeHyper(offset).writeInt(len), true), "READ", path);
        Nfs3Attributes.readOptional(in);
        int count = in.readInt();
        boolean eof = in.readBoolean();
        int n = in.readOpaqueInto(dst, off, len);
        if (n != count) {
            throw new IOException("READ " + path + ": server said " + count + " bytes but sent " + n);
        }
        return n == 0 && eof ? -1 : n;
    }

    /** An UNSTABLE WRITE of all {@code len} bytes; returns the server's write verifier. */
    long write(byte[] fh, long offset, byte[] src, int off, int len, String path) throws IOException {
        int done = 0;
        long verifier = 0;
        while (done < len) {
            XdrOut args = new XdrOut().writeOpaque(fh).writeHyper(offset + done).writeInt(len - done)
                    .writeInt(UNSTABLE).writeOpaque(src, off + done, len - done);
            // rewriting the same bytes at the same offset is harmless, so a WRITE may be retried
            XdrIn in = ok(call(WRITE, args, true), "WRITE", path);
            Nfs3Attributes.skipWcc(in);
            int count = in.readInt();
            in.readInt(); // how stably the server committed it
            verifier = in.readHyper();
            if (count <= 0) {
                throw new IOException("WRITE " + path + ": server wrote no bytes at offset " + (offset + done));
            }
            done += count;
        }
        return verifier;
    }

    /** COMMIT everything written to the file; returns the server's write verifier. */
    long commit(byte[] fh, String path) throws IOException {
        XdrIn in = ok(call(COMMIT, new XdrOut().writeOpaque(fh).writeHyper(0).writeInt(0), true), "COMMIT", path);
        Nfs3Attributes.skipWcc(in);
        return in.readHyper();
    }

    /** CREATE a regular file; with {@code overwrite} an existing file is truncated, else it is an error. */
    byte[] create(byte[] dir, String name, int mode, boolean overwrite, String path) throws IOException {
        XdrOut args = dirOp(dir, name).writeInt(overwrite ? CREATE_UNCHECKED : CREATE_GUARDED);
        writeSattr(args, mode, overwrite);
        return newHandle(call(CREATE, args, false), dir, name, "CREATE", path);
    }

    byte[] mkdir(byte[] dir, String name, int mode, String path) throws IOException {
        XdrOut args = dirOp(dir, name);
        writeSattr(args, mode, false);
        return newHandle(call(MKDIR, args, false), dir, name, "MKDIR", path);
    }

    void remove(byte[] dir, String name, boolean directory, String path) throws IOException {
        String op = directory ? "RMDIR" : "REMOVE";
        XdrIn in = ok(call(directory ? RMDIR : REMOVE, dirOp(dir, name), false), op, path);
        Nfs3Attributes.skipWcc(in);
    }

    void rename(byte[] fromDir, String fromName, byte[] toDir, String toName, String path) throws IOException {
        XdrOut args = dirOp(fromDir, fromName).writeOpaque(toDir).writeString(toName);
        ok(call(RENAME, args, false), "RENAME", path);
    }

    /** FSINFO: the server's largest READ and WRITE sizes. */
    int[] maxTransferSizes(byte[] root) throws IOException {
        XdrIn in = ok(call(FSINFO, new XdrOut().writeOpaque(root), true), "FSINFO", "/");
        Nfs3Attributes.readOptional(in);
        int rtmax = in.readInt();
        in.readInt(); // rtpref
        in.readInt(); // rtmult
        int wtmax = in.readInt();
        return new int[] {rtmax, wtmax};
    }

    private byte[] newHandle(Reply reply, byte[] dir, String name, String op, String path) throws IOException {
        XdrIn in = ok(reply, op, path);
        byte[] fh = in.readBoolean() ? in.readOpaque(MAX_HANDLE) : null;
        if (fh != null) {
            return fh;
        }
        Entry created = lookup(dir, name, path); // the server may leave the new handle out
        if (created == null) {
            throw new FileNotFoundException(op + " " + path + ": created, then not found");
        }
        return created.handle();
    }

    /** sattr3: the mode, and size 0 to truncate; owner and times are left to the server. */
    private static void writeSattr(XdrOut out, int mode, boolean truncate) {
        out.writeBoolean(true).writeInt(mode);
        out.writeBoolean(false); // uid
        out.writeBoolean(false); // gid
        out.writeBoolean(truncate);
        if (truncate) {
            out.writeHyper(0);
        }
        out.writeInt(0); // atime: do not change
        out.writeInt(0); // mtime: do not change
    }

    private static XdrOut dirOp(byte[] dir, String name) {
        return new XdrOut().writeOpaque(dir).writeString(name);
    }

    private Reply call(int procedure, XdrOut args, boolean idempotent) throws IOException {
        for (int attempt = 1; ; attempt++) {
            XdrIn in = endpoint.call(procedure, cred, args, idempotent);
            int status = in.readInt();
            if (status != Nfs3Status.JUKEBOX || !idempotent || attempt >= retry.attempts()) {
                return new Reply(status, in);
            }
            try {
                Thread.sleep(retry.intervalMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the NFS server was busy");
            }
        }
    }

    private static XdrIn ok(Reply reply, String op, String path) throws IOException {
        if (reply.status != Nfs3Status.OK) {
            throw Nfs3Status.toException(reply.status, op, path);
        }
        return reply.body;
    }

    @Override
    public void close() throws IOException {
        endpoint.close();
    }

    private record Reply(int status, XdrIn body) { }

    /** A named object in a directory: its handle and attributes. */
    record Entry(String name, byte[] handle, Nfs3Attributes attributes) { }
}
