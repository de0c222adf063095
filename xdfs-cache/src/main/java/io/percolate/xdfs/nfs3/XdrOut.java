package io.percolate.xdfs.nfs3;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An XDR (RFC 4506) encoder: big-endian 4-byte units, opaque data and strings padded to a multiple
 * of four. It grows as needed; {@link #bytes()} and {@link #length()} give what was written.
 */
final class XdrOut {

    private byte[] buf = new byte[256];
    private int len;

    XdrOut writeInt(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
        return this;
    }

    XdrOut writeHyper(long v) {
        writeInt((int) (v >>> 32));
        return writeInt((int) v);
    }

    XdrOut writeBoolean(boolean v) {
        return writeInt(v ? 1 : 0);
    }

    /** Fixed-length opaque: the bytes, then padding; no length word. */
    XdrOut writeFixedOpaque(byte[] data) {
        return writeBytes(data, 0, data.length);
    }

    /** Variable-length opaque: a length word, the bytes, then padding. */
    XdrOut writeOpaque(byte[] data, int off, int n) {
        writeInt(n);
        return writeBytes(data, off, n);
    }

    XdrOut writeOpaque(byte[] data) {
        return writeOpaque(data, 0, data.length);
    }

    XdrOut writeString(String s) {
        return writeOpaque(s.getBytes(StandardCharsets.UTF_8));
    }

    int length() {
        return len;
    }

    byte[] bytes() {
        return buf;
    }

    private XdrOut writeBytes(byte[] data, int off, int n) {
        int padded = (n + 3) & ~3;
        ensure(padded);
        System.arraycopy(data, off, buf, len, n);
        Arrays.fill(buf, len + n, len + padded, (byte) 0);
        len += padded;
        return this;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
