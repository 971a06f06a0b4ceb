package org.jrdma.tools.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.jrdma.tools.json.Json;

/**
 * {@code --out_json}: the run as one JSON object, written to the {@code --out_json_file} (by
 * way of a temporary file in the same directory and a rename, so a reader never sees half of
 * it). The keys:
 *
 * <pre>
 * {"tool":"jrdma perf","test":"write_bw","title":"RDMA_Write BW Test","role":"client",
 *  "device":"soft_lo","connection":"RC","qps":1,"mtu":4096,"txDepth":128,"postList":1,"bidirectional":false,
 *  "iters":5000,"durationSeconds":0,"peerVersion":"6.06","bwUnit":"MiB/sec",
 *  "results":[{"bytes":65536,"iterations":5000,"bwPeak":…,"bwAverage":…,"msgRateMpps":…,
 *              "allocBytesPerOp":…}],
 *  "check":{"verified":…,"what":"60 messages received (every byte)","failed":0}}
 * </pre>
 *
 * With {@code --idle-qps N}, {@code "idleQps":N} follows {@code peerVersion}; then
 * {@code setupCpuSeconds}, the CPU (every thread) this process had used when the session was set
 * up and the test about to start, so that what the test itself costs can be told from the
 * process's total (bench/run's CPU seconds per GiB). Latency results have {@code bytes, iterations, tMinUsec, tMaxUsec, tTypicalUsec, tAvgUsec,
 * tStdevUsec, p99Usec, p999Usec} (with {@code -D}: {@code tAvgUsec, tpsAverage}).
 * {@code allocBytesPerOp} is there with {@code --report-alloc}, {@code check} with {@code --check}
 * ({@code what}: the summary line's account of what this side verified).
 */
final class PerfJson {
    private PerfJson() {
    }

    static String of(PerfConfig c, String deviceName, int mtuBytes, String peerVersion, double setupCpuSeconds, List<ResultRow> rows,
            CheckTally tally) {
        Json j = new Json().begin();
        j.field("tool", "jrdma perf").field("test", c.test().cliName()).field("title", Banner.title(c).strip())
                .field("role", c.isServer() ? "server" : "client").field("device", deviceName)
                .field("connection", c.connection().name()).field("qps", c.qps()).field("mtu", mtuBytes)
                .field("txDepth", c.txDepth()).field("postList", c.postList()).field("bidirectional", c.bidirectional()).field("iters", c.iters())
                .field("durationSeconds", c.durationSeconds()).field("peerVersion", peerVersion);
        if (c.idleQps() > 0) {
            j.field("idleQps", c.idleQps()); // jrdma's --idle-qps, only when given
        }
        if (!Double.isNaN(setupCpuSeconds)) {
            j.field("setupCpuSeconds", setupCpuSeconds, 3);
        }
        if (c.test().isBandwidth()) {
            j.field("bwUnit", c.reportGbits() ? "Gb/sec" : "MiB/sec");
        }
        j.beginArray("results");
        for (ResultRow r : rows) {
            j.begin().field("bytes", r.size()).field("iterations", r.iters());
            if (r.bw() != null) {
                j.field("bwPeak", r.bw().bwPeak(), 2).field("bwAverage", r.bw().bwAvg(), 2)
                        .field("msgRateMpps", r.bw().msgRateMpps(), 6);
            } else if (c.byDuration()) {
                j.field("tAvgUsec", r.lat().avgUsec(), 2).field("tpsAverage", r.lat().tps(), 2);
            } else {
                LatencyStats s = r.lat();
                j.field("tMinUsec", s.minUsec(), 2).field("tMaxUsec", s.maxUsec(), 2).field("tTypicalUsec", s.typicalUsec(), 2)
                        .field("tAvgUsec", s.avgUsec(), 2).field("tStdevUsec", s.stdevUsec(), 2)
                        .field("p99Usec", s.p99Usec(), 2).field("p999Usec", s.p999Usec(), 2);
            }
            if (c.reportAlloc()) {
                j.field("allocBytesPerOp", r.allocBytesPerOp(), 2);
            }
            j.end();
        }
        j.endArray();
        if (c.check()) {
            String what = tally.verifiedText();
            j.key("check").begin().field("verified", tally.verified()).field("what", what == null ? "nothing on this side" : what)
                    .field("failed", tally.failed()).end();
        }
        return j.end().toString();
    }

    /**
     * Writes {@code json} to {@code file}; {@link LocalLimits} checked its directory before the
     * run, so a failure here is the file system's (it filled up, or the directory went away),
     * and the message says which.
     */
    static void write(Path file, String json) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try {
                Files.writeString(tmp, json + "\n", StandardCharsets.UTF_8);
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("--out_json_file " + file + " (in " + dir + "): " + reason(e)
                    + "; the results above are not in it", e);
        }
    }

    /** The cause in words: NIO's exceptions carry only the path in their message. */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason(); // "Read-only file system", "No space left on device" …
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
