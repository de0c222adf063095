package io.percolate.estimate;

import io.percolate.model.JobEstimate;

import java.util.List;

/**
 * How many map tasks Hive runs over one input (a table's files, or a parent job's output), as its
 * default {@code CombineHiveInputFormat} splits it. Each block of each file is cut into chunks of
 * at most the split size, except that a rest between one and two split sizes is cut in half so
 * that no chunk is tiny; chunks are then packed into splits until each holds at least the split
 * size, and what is left makes one more. So a one-block file of 3.9 split sizes runs 3 maps, not 4:
 * its last 1.9 split sizes are two halves packed into one split. Each input is split apart from
 * the others (Hive pools splits by input path).
 *
 * <p>Assumed: the files of an input are equal in size (a table's are taken as one file; a job's
 * output as one file per writing task), and every block has a replica on every node, so packing
 * node by node packs them all in one run. On larger clusters with blocks smaller than the split
 * size, each node's rest becomes a split of its own, and Hive runs a few more maps than counted.
 */
final class CombinedSplits {
    /**
     * One input of a job.
     *
     * @param bytes      its size
     * @param files      how many files hold it, taken as equal
     * @param blockBytes its file system's block size; 0 when not known
     */
    record Input(long bytes, int files, long blockBytes) {
        Input {
            if (bytes < 0 || files < 1 || blockBytes < 0) {
                throw new IllegalArgumentException("bad input: " + bytes + " bytes in " + files + " files of "
                        + blockBytes + "-byte blocks");
            }
        }

        /** A table, taken as one file. */
        static Input table(long bytes, long blockBytes) {
            return new Input(bytes, 1, blockBytes);
        }

        /** What {@code parent} writes for its children: one file per writing task, on the default file system. */
        static Input outputOf(JobEstimate parent) {
            int writers = parent.reduceTasks() > 0 ? parent.reduceTasks() : parent.mapTasks();
            return new Input(parent.outputBytes(), Math.max(1, writers), 0);
        }
    }

    /** Beyond this many chunks the packing is not simulated: the splits are then bytes over split size. */
    private static final long MAX_CHUNKS = 1_000_000;

    private CombinedSplits() {
    }

    /** Map tasks over {@code inputs}: their splits, at least one. */
    static int mapTasks(List<Input> inputs, long defaultBlockBytes, long splitBytes) {
        long splits = 0;
        for (Input input : inputs) {
            splits += of(input, input.blockBytes() > 0 ? input.blockBytes() : defaultBlockBytes, splitBytes);
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, splits));
    }

    /** Splits of {@code input}; 0 for an empty one. */
    static long of(Input input, long blockBytes, long splitBytes) {
        long bytes = input.bytes();
        if (bytes == 0) {
            return 0;
        }
        long files = Math.min(input.files(), bytes); // no file is empty
        long chunkBytes = Math.max(1, Math.min(splitBytes, Math.min(blockBytes, bytes / files)));
        if (bytes / chunkBytes > MAX_CHUNKS) {
            return ceilDiv(bytes, splitBytes);
        }
        long splits = 0;
        long packed = 0;
        for (long f = 0; f < files; f++) {
            long fileBytes = bytes / files + (f < bytes % files ? 1 : 0);
            for (long offset = 0; offset < fileBytes; offset += blockBytes) {
                long left = Math.min(blockBytes, fileBytes - offset);
                while (left > 0) {
                    long chunk = left > splitBytes && left < 2 * splitBytes ? left / 2 : Math.min(splitBytes, left);
                    left -= chunk;
                    packed += chunk;
                    if (packed >= splitBytes) {
                        splits++;
                        packed = 0;
                    }
                }
            }
        }
        return packed > 0 ? splits + 1 : splits;
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
