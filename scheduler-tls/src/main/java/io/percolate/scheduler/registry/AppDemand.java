package io.percolate.scheduler.registry;

/**
 * What an application asks for and holds right now, counted in containers, as the scheduler
 * sees it; the ApplicationMaster's own container is not counted as running work.
 */
public record AppDemand(long pending, long running) {
    public static final AppDemand NONE = new AppDemand(0, 0);

    public AppDemand {
        pending = Math.max(0, pending);
        running = Math.max(0, running);
    }
}
