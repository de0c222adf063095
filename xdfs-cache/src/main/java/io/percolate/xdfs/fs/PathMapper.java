package io.percolate.xdfs.fs;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIOException;

import java.net.URI;

import static java.util.Objects.requireNonNull;

/**
 * {@code xdfs://auth/a/b} ↔ {@code <backing root>/a/b}. Paths are compared textually after
 * Hadoop's normalisation, and a path with a {@code ..} segment left over (one that climbs above the
 * root) is refused, so no xdfs path names anything outside the configured backing root.
 */
public final class PathMapper {

    private final URI xdfsUri;
    private final Path backingRoot;
    private final String backingRootPath;

    /**
     * @param xdfsUri scheme and authority of the xdfs file system
     * @param backingRoot the qualified backing-store root
     */
    public PathMapper(URI xdfsUri, Path backingRoot) {
        this.xdfsUri = requireNonNull(xdfsUri, "xdfsUri");
        this.backingRoot = requireNonNull(backingRoot, "backingRoot");
        String root = backingRoot.toUri().getPath();
        this.backingRootPath = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    }

    public Path backingRoot() {
        return backingRoot;
    }

    /** The backing-store path of a qualified xdfs path. */
    public Path toBacking(Path xdfsPath) throws PathIOException {
        String path = xdfsPath.toUri().getPath();
        if (!path.startsWith("/")) {
            throw new PathIOException(xdfsPath.toString(), "xdfs paths must be qualified before mapping");
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                throw new PathIOException(xdfsPath.toString(), "climbs above the root of the backing store");
            }
        }
        return path.equals("/") ? backingRoot : Path.mergePaths(backingRoot, new Path(path));
    }

    /** The xdfs path of a path the backing store returned. */
    public Path toXdfs(Path backingPath) throws PathIOException {
        String path = backingPath.toUri().getPath();
        String relative;
        if (backingRootPath.equals("/")) {
            relative = path;
        } else if (path.equals(backingRootPath)) {
            relative = "/";
        } else if (path.startsWith(backingRootPath + "/")) {
            relative = path.substring(backingRootPath.length());
        } else {
            throw new PathIOException(backingPath.toString(), "is outside the backing root " + backingRoot);
        }
        return new Path(xdfsUri.getScheme(), xdfsUri.getAuthority(), relative);
    }
}
