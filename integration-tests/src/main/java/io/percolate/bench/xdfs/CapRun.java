package io.percolate.bench.xdfs;

import java.util.ArrayList;
import java.util.List;

/**
 * The background fill under a bandwidth cap: bytes the filer served over time, and the rate over
 * every window of {@code windowSeconds} that lies inside the fill (sliding, one per sample).
 *
 * @param samples (seconds since the fill was asked for, bytes read from the filer so far)
 * @param windows (window end, MiB/s over the window)
 */
record CapRun(double capMb, int windowSeconds, List<double[]> samples, List<double[]> windows) {

    CapRun {
        samples = List.copyOf(samples);
        windows = List.copyOf(windows);
    }

    static CapRun of(List<double[]> samples, double capMb, int windowSeconds) {
        List<double[]> windows = new ArrayList<>();
        int j = 0;
        for (double[] from : samples) {
            while (j < samples.size() && samples.get(j)[0] < from[0] + windowSeconds) {
                j++;
            }
            if (j == samples.size()) {
                break; // the rest of the windows reach past the end of the fill
            }
            double[] to = samples.get(j);
            windows.add(new double[] {to[0], (to[1] - from[1]) / 1048576.0 / (to[0] - from[0])});
        }
        return new CapRun(capMb, windowSeconds, samples, windows);
    }

    double seconds() {
        return samples.isEmpty() ? 0 : samples.get(samples.size() - 1)[0];
    }

    double bytes() {
        return samples.isEmpty() ? 0 : samples.get(samples.size() - 1)[1];
    }

    /** The fastest window; NaN if the fill was shorter than one window. */
    double maxWindowMbPerSecond() {
        return windows.stream().mapToDouble(w -> w[1]).max().orElse(Double.NaN);
    }

    /** The cap_error: how far the fastest window went over the cap, relative to it; 0 if none did. */
    double capError() {
        return Math.max(0, maxWindowMbPerSecond() / capMb - 1);
    }

    /** Mean rate over the whole fill, MiB/s: how much of the cap the fill used. */
    double meanMbPerSecond() {
        return bytes() / 1048576.0 / seconds();
    }
}
