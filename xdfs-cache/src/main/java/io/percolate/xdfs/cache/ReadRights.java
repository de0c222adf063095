package io.percolate.xdfs.cache;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;

import java.io.IOException;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Who may read a backing-store file, as far as mode bits tell: its owner, and whether all of its
 * group and everyone else may. A class may read only if the file lets it and every directory
 * from the file up to the export root lets it through (a 0644 file in a 0700 directory is its
 * owner's alone). An ACL on the file or a directory may shut out anyone, so it leaves the owner alone.
 *
 * @param owner the file's owner
 * @param group the file's group
 * @param groupReads whether every member of the file's group may read it
 * @param othersRead whether everyone else may read it
 */
public record ReadRights(String owner, String group, boolean groupReads, boolean othersRead) {

    public ReadRights {
        requireNonNull(owner, "owner");
        requireNonNull(group, "group");
    }

    /**
     * The rights of {@code file}, under {@code root}, looking at its directories through
     * {@code backing}; {@code seen} remembers directories' statuses across calls (one poll's worth).
     */
    public static ReadRights of(FileStatus file, Path root, FileSystem backing, Map<Path, FileStatus> seen)
            throws IOException {
        FsPermission mode = file.getPermission();
        boolean acl = file.hasAcl();
        boolean groupReads = mode.getGroupAction().implies(FsAction.READ);
        boolean othersRead = mode.getOtherAction().implies(FsAction.READ);
        String rootPath = withoutTrailingSlash(root.toUri().getPath());
        for (Path dir = file.getPath().getParent(); dir != null && (groupReads || othersRead) && !acl;
             dir = dir.getParent()) {
            FileStatus status = seen.get(dir);
            if (status == null) {
                status = backing.getFileStatus(dir);
                seen.put(dir, status);
            }
            FsPermission dirMode = status.getPermission();
            boolean othersPass = dirMode.getOtherAction().implies(FsAction.EXECUTE);
            boolean groupPasses = othersPass
                    || (status.getGroup().equals(file.getGroup()) && dirMode.getGroupAction().implies(FsAction.EXECUTE));
            acl = status.hasAcl();
            groupReads &= groupPasses;
            othersRead &= othersPass;
            if (withoutTrailingSlash(dir.toUri().getPath()).equals(rootPath)) {
                break;
            }
        }
        return new ReadRights(file.getOwner(), file.getGroup(), groupReads && !acl, othersRead && !acl);
    }

    private static String withoutTrailingSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
