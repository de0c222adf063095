package io.percolate.xdfs.manager.api;

import java.util.List;

/** The bodies clients send to the manager. */
public final class ManagerRequests {

    private ManagerRequests() {
    }

    /** Notices about blocks, sent in batches. */
    public record Notices(List<BlockNotice> notices) {
        public Notices {
            notices = List.copyOf(notices);
        }
    }

    /** How many notices the manager took; the others were malformed or refused (its log says why). */
    public record NoticesResult(int accepted, int refused) {
    }

    /** A path (an xdfs path such as {@code /warehouse/lineitem}) to warm or invalidate. */
    public record PathRequest(String path) {
    }

    /** Keep the cached blocks of every file under {@code path} until {@code holder} releases them. */
    public record PinRequest(String holder, String path) {
    }

    /** Drop every pin {@code holder} holds. */
    public record ReleaseRequest(String holder) {
    }
}
