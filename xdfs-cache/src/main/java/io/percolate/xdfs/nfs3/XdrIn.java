package io.percolate.xdfs.nfs3;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An XDR (RFC 4506) decoder over one RPC reply. Reading past the end is a protocol error
 * ({@link EOFException}), never a silent zero.
 */
final class XdrIn {

    private final ByteBuffer buf;

    XdrIn(byte[] data, int len) {
        this.buf = ByteBuffer.wrap(data, 0, len);
    }

    int readInt() throws IOException {
        need(4);
        return buf.getInt();
    }

    /** An unsigned 32-bit value. */
    long readUnsigned() throws IOException {
        return readInt() & 0xffffffffL;
    }

    long readHyper() throws IOException {
        need(8);
        return buf.getLong();
    }

    boolean readBoolean() throws IOException {
        return readInt() != 0;
    }

    byte[] readFixedOpaque(int n) throws IOException {
        byte[] out = new byte[n];
        readInto(out, 0, n);
        return out;
    }

    /** Variable-length opaque data, at most {@code max} bytes (a larger length is a protocol error). */
    byte[] readOpaque(int max) throws IOException {
        int n = readInt();
        if (n < 0 || n > max) {
            throw new IOException("XDR opaque length " + n + " outside [0, " + max + "]");
        }
        return readFixedOpaque(n);
    }

    /** Variable-length opaque data copied into {@code dst}, which must have room for it; returns its length. */
    int readOpaqueInto(byte[] dst, int off, int max) throws IOException {
        int n = readInt();
        if (n < 0 || n > max) {
            throw new IOException("XDR opaque length " + n + " outside [0, " + max + "]");
        }
        readInto(dst, off, n);
        return n;
    }

    String readString(int max) throws IOException {
        return new String(readOpaque(max), StandardCharsets.UTF_8);
    }

    void skip(int bytes) throws IOException {
        need(bytes);
        buf.position(buf.position() + bytes);
    }

    private void readInto(byte[] dst, int off, int n) throws IOException {
        int padded = (n + 3) & ~3;
        need(padded);
        buf.get(dst, off, n);
        buf.position(buf.position() + padded - n);
    }

    private void need(int n) throws IOException {
        if (buf.remaining() < n) {
            throw new EOFException("XDR reply ends early: need " + n + " bytes, " + buf.remaining() + " left");
        }
    }
}
