package org.jrdma.tools.perf;

/**
 * One printed row, for {@code --out_json}: a bandwidth or a latency result, and the heap bytes
 * allocated per operation while it was measured (NaN without {@code --report-alloc}).
 */
record ResultRow(BwReport bw, LatencyStats lat, double allocBytesPerOp) {
    static ResultRow bw(BwReport r, double alloc) {
        return new ResultRow(r, null, alloc);
    }

    static ResultRow lat(LatencyStats s, double alloc) {
        return new ResultRow(null, s, alloc);
    }

    long size() {
        return bw != null ? bw.size() : lat.size();
    }

    long iters() {
        return bw != null ? bw.iters() : lat.iters();
    }
}
