package io.percolate.scheduler.registry;

/**
 * What a job costs outside its tasks, as the registry has learned it so far ({@link LearnedJobCosts}).
 *
 * @param startSeconds   before its first task: hand-off and ApplicationMaster launch
 * @param endSeconds     after its last task, to its application's removal
 * @param pathEndSeconds of that end, what its query waits for before its next job arrives
 */
public record JobOverheads(double startSeconds, double endSeconds, double pathEndSeconds) {
}
