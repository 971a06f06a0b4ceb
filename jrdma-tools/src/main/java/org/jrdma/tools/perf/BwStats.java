package org.jrdma.tools.perf;

/**
 * A bandwidth row from the sender's timestamps, computed as perftest's print_report_bw does
 * (ROCEV2-FACTS §6.4), in our own code.
 *
 * <ul>
 * <li>Average: {@code iters × size} bytes over the time from the first post to the last
 * completion; message rate: {@code iters} over the same time, in millions per second.
 * <li>Peak: perftest's "fastest stretch". For every post {@code i} and every signaled completion
 * {@code j ≥ i}, {@code (t_completed[j] − t_posted[i]) / (j − i + 1)} is the time per message
 * over that stretch; the peak is {@code size} over the smallest such time. Only signaled
 * completions carry a time (CQ moderation), as in perftest. The search is quadratic, so when
 * posts × signaled completions exceeds {@value #PEAK_WORK_LIMIT} the posts are sampled at an even
 * stride (every one of them below that), which can only miss a slightly faster stretch.
 * <li>With {@code -D} no per-iteration times are kept and the peak is 0, as perftest prints it
 * with its "BW peak won't be measured" warning.
 * </ul>
 */
final class BwStats {
    static final long PEAK_WORK_LIMIT = 50_000_000L;

    private BwStats() {
    }

    /**
     * @param postNanos post time of each iteration, {@code iters} of them
     * @param doneIndex the iteration of each signaled completion (in completion order)
     * @param doneNanos its time
     * @param dones how many signaled completions
     */
    static BwReport report(int size, long iters, long[] postNanos, long[] doneIndex, long[] doneNanos, int dones,
            long startNanos, long endNanos, boolean gbits) {
        double unit = BwTable.unitBytes(gbits);
        double seconds = (endNanos - startNanos) / 1e9;
        double avg = seconds > 0 ? (double) size * iters / seconds / unit : 0;
        double rate = seconds > 0 ? iters / seconds / 1e6 : 0;
        double peak = 0;
        if (postNanos != null && dones > 0 && iters > 0) {
            double best = fastestNanosPerMessage(postNanos, (int) iters, doneIndex, doneNanos, dones);
            peak = best > 0 ? size / (best / 1e9) / unit : 0;
        }
        return new BwReport(size, iters, peak, avg, rate);
    }

    /** The smallest time per message over any stretch from a post to a later signaled completion. */
    static double fastestNanosPerMessage(long[] postNanos, int posts, long[] doneIndex, long[] doneNanos, int dones) {
        long work = (long) posts * dones;
        int stride = (int) Math.max(1, (work + PEAK_WORK_LIMIT - 1) / PEAK_WORK_LIMIT);
        double best = Double.MAX_VALUE;
        for (int i = 0; i < posts; i += stride) {
            // With several QPs, signaled completions arrive out of iteration order.
            for (int d = 0; d < dones; d++) {
                if (doneIndex[d] < i) {
                    continue;
                }
                double perMessage = (double) (doneNanos[d] - postNanos[i]) / (doneIndex[d] - i + 1);
                if (perMessage < best) {
                    best = perMessage;
                }
            }
        }
        return best == Double.MAX_VALUE ? 0 : best;
    }
}
