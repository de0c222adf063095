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

    /**
     * What a client's readers read since its last report, so the manager's counters (and its hit
     * ratio) are the cluster's: block reads and bytes served from cached copies and from the backing store.
     */
    public record Reads(long blocksFromCache, long blocksFromBacking, long bytesFromCache, long bytesFromBacking) {
        public Reads {
            if (blocksFromCache < 0 || blocksFromBacking < 0 || bytesFromCache < 0 || bytesFromBacking < 0) {
                throw new IllegalArgumentException("read counts must be >= 0");
            }
        }

        /** Whether anything was read (not a bean getter: it is no field of the JSON body). */
        public boolean anyRead() {
            return blocksFromCache != 0 || blocksFromBacking != 0 || bytesFromCache != 0 || bytesFromBacking != 0;
        }
    }

    /** Drop every pin {@code holder} holds. */
    public record ReleaseRequest(String holder) {
    }
}
