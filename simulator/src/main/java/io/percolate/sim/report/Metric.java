package io.percolate.sim.report;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A number the benchmark reports, declared once: its JSON key and how it is computed from a set
 * of scored queries. A new metric is one line in {@link #RUN} or {@link #BIN}; the report
 * writer needs no change.
 */
public record Metric(String key, ToDoubleFunction<Scored> value) {
    /** Per scheduler, over all queries of the run. */
    public static final List<Metric> RUN = List.of(
            new Metric("mean_response_s", Scored::meanResponse),
            new Metric("mean_slowdown", Scored::meanSlowdown),
            new Metric("max_slowdown", Scored::maxSlowdown),
            new Metric("jain_slowdown", Scored::jainSlowdown),
            new Metric("mean_stall_s", Scored::meanStall),
            new Metric("makespan_s", Scored::makespan));

    /** Per scheduler and size bin. */
    public static final List<Metric> BIN = List.of(
            new Metric("queries", s -> s.queries().size()),
            new Metric("mean_response_s", Scored::meanResponse),
            new Metric("mean_slowdown", Scored::meanSlowdown),
            new Metric("max_slowdown", Scored::maxSlowdown),
            new Metric("stall_s", Scored::meanStall));
}
