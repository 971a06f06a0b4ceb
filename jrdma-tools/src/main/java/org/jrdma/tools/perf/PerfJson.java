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
 * {@code --out_json}: the run in perftest's own file format, written to {@code --out_json_file}
 * (default {@code perftest_out.json}, as perftest's DEFAULT_JSON_FILE_NAME) by way of a temporary
 * file in the same directory and a rename, so a reader never sees half of it. The text is what
 * perftest's {@code write_test_info_to_file} and {@code write_bw_report_to_file} /
 * {@code write_report_lat_to_file} / {@code write_report_lat_duration_to_file} print — the same
 * keys, nesting, line breaks and C number formats (REPORT_FMT_JSON and its siblings in
 * perftest_parameters.h):
 *
 * <pre>
 * {
 * "test_info": {
 * "test": "RDMA_Write_BW_Test",
 * "Dual_port": "OFF",
 * "Device": "soft_lo",
 * …
 * "Data_ex_method": "Ethernet"
 * },
 * "results": {
 * "MsgSize": 65536,
 * "n_iterations": 5000,
 * "BW_peak": 1123.45,
 * "BW_average": 1100.02,
 * "MsgRate": 0.017600
 * },
 * "jrdma": {…}
 * }
 * </pre>
 *
 * Latency tests have {@code MsgSize, n_iterations, t_min, t_max, t_typical, t_avg, t_stdev,
 * percentile_99, percentile_99.9} (microseconds, two decimals), {@code -D} latency runs
 * {@code MsgSize, n_iterations, t_avg, tps_average}. perftest rewrites the file after each size,
 * so with {@code -a} its "results" are the last size's; so are these. What perftest has no key
 * for is in one more top-level object, {@code "jrdma"}, which perftest's readers never look at:
 * {@code tool, role, peerVersion}, {@code idleQps} (with {@code --idle-qps}),
 * {@code setupCpuSeconds} (the CPU, every thread, this process had used when the session was set
 * up, so what the test itself costs can be told from the process's total), {@code bwUnit},
 * {@code allocBytesPerOp} of the last size (with {@code --report-alloc}), {@code check} (with
 * {@code --check}: what this side verified) and {@code sizes}, every size's row in jrdma's
 * earlier keys ({@code bytes, iterations, bwPeak, bwAverage, msgRateMpps} or
 * {@code tMinUsec … p999Usec}).
 */
final class PerfJson {
    private PerfJson() {
    }

    /** What the session settled that the file reports: the device, the path MTU, the CQ moderation. */
    record Setup(String deviceName, int mtuBytes, int cqMod, String peerVersion, double setupCpuSeconds) {
    }

    static String of(PerfConfig c, Setup setup, List<ResultRow> rows, CheckTally tally) {
        StringBuilder sb = new StringBuilder("{\n");
        testInfo(sb, c, setup);
        ResultRow last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
        sb.append("\"results\": {\n");
        if (last != null) {
            results(sb, c, last);
        }
        sb.append("},\n\"jrdma\": ").append(jrdma(c, setup, rows, tally)).append("\n}\n");
        return sb.toString();
    }

    /** write_test_info_to_file, the lines for what jrdma has (no CUDA, no multicast, no dual port). */
    private static void testInfo(StringBuilder sb, PerfConfig c, Setup setup) {
        sb.append("\"test_info\": {\n");
        sb.append("\"test\": \"").append(c.verb().bannerName()).append('_');
        if (c.verb() == Verb.ATOMIC) {
            sb.append(c.atomicType().name()).append('_');
        }
        if (c.test().isBandwidth()) {
            if (c.bidirectional()) {
                sb.append("Bidirectional_");
            }
            if (c.postList() > 1) {
                sb.append("Post_List_");
            }
            sb.append("BW_");
        } else {
            sb.append("Latency_");
        }
        sb.append("Test\",\n");
        line(sb, "Dual_port", "OFF");
        line(sb, "Device", setup.deviceName());
        number(sb, "Number_of_qps", c.qps());
        line(sb, "Transport_type", "IB");
        line(sb, "Connection_type", c.connection().name());
        line(sb, "Using_SRQ", "OFF");
        // perftest built without HAVE_RO writes this key after a space
        sb.append(" \"PCIe_relax_order\": \"Unsupported\",\n");
        line(sb, "ibv_wr_API", "OFF");
        if (!c.isServer() || c.bidirectional()) {
            number(sb, "TX_depth", c.txDepth());
        }
        if (c.postList() > 1) {
            number(sb, "Post_List", c.postList());
        }
        if (c.verb() == Verb.SEND && (c.isServer() || c.bidirectional())) {
            number(sb, "RX_depth", c.rxDepth());
        }
        if (c.test().isBandwidth()) {
            number(sb, "CQ_Moderation", setup.cqMod());
        }
        number(sb, "Mtu", setup.mtuBytes());
        line(sb, "Link_type", "Ethernet");
        // RoCE: perftest's gid_index is 0 when not given (check_link_and_mtu), so always printed
        number(sb, "GID_index", c.gidIndex());
        if (c.verb().usesReadResources()) {
            number(sb, "Outstand_reads", c.outReads());
        } else {
            number(sb, "Max_inline_data", c.inlineSize());
        }
        line(sb, "rdma_cm_QPs", c.rdmaCm() ? "ON" : "OFF");
        line(sb, "Use_ROCm_memory", "OFF");
        sb.append("\"Data_ex_method\": \"").append(c.cmExchange() ? "rdma_cm" : "Ethernet").append('"');
        sb.append("\n},\n");
    }

    /** REPORT_FMT_JSON (REPORT_FMT_EXT_JSON below 0.1 Gb/s), REPORT_FMT_LAT_JSON or REPORT_FMT_LAT_DUR_JSON, then REPORT_EXT_JSON. */
    private static void results(StringBuilder sb, PerfConfig c, ResultRow r) {
        sb.append("\"MsgSize\": ").append(r.size()).append(",\n\"n_iterations\": ").append(r.iters()).append(",\n");
        if (r.bw() != null) {
            BwReport b = r.bw();
            int d = c.reportGbits() && b.bwAvg() < 0.1 ? 6 : 2;
            sb.append("\"BW_peak\": ").append(CFormat.fixed(b.bwPeak(), d)).append(",\n");
            sb.append("\"BW_average\": ").append(CFormat.fixed(b.bwAvg(), d)).append(",\n");
            sb.append("\"MsgRate\": ").append(CFormat.fixed(b.msgRateMpps(), 6));
        } else if (c.byDuration()) {
            LatencyStats s = r.lat();
            sb.append("\"t_avg\": ").append(CFormat.fixed(s.avgUsec(), 2)).append(",\n");
            sb.append("\"tps_average\": ").append(CFormat.fixed(s.tps(), 2));
        } else {
            LatencyStats s = r.lat();
            sb.append("\"t_min\": ").append(CFormat.fixed(s.minUsec(), 2)).append(",\n");
            sb.append("\"t_max\": ").append(CFormat.fixed(s.maxUsec(), 2)).append(",\n");
            sb.append("\"t_typical\": ").append(CFormat.fixed(s.typicalUsec(), 2)).append(",\n");
            sb.append("\"t_avg\": ").append(CFormat.fixed(s.avgUsec(), 2)).append(",\n");
            sb.append("\"t_stdev\": ").append(CFormat.fixed(s.stdevUsec(), 2)).append(",\n");
            sb.append("\"percentile_99\": ").append(CFormat.fixed(s.p99Usec(), 2)).append(",\n");
            sb.append("\"percentile_99.9\": ").append(CFormat.fixed(s.p999Usec(), 2));
        }
        sb.append('\n');
    }

    private static void line(StringBuilder sb, String key, String value) {
        sb.append('"').append(key).append("\": \"").append(value).append("\",\n");
    }

    private static void number(StringBuilder sb, String key, long value) {
        sb.append('"').append(key).append("\": ").append(value).append(",\n");
    }

    /** What perftest has no key for, in jrdma's compact form. */
    private static String jrdma(PerfConfig c, Setup setup, List<ResultRow> rows, CheckTally tally) {
        Json j = new Json().begin();
        j.field("tool", "jrdma perf").field("test", c.test().cliName()).field("role", c.isServer() ? "server" : "client")
                .field("peerVersion", setup.peerVersion());
        if (c.idleQps() > 0) {
            j.field("idleQps", c.idleQps()); // jrdma's --idle-qps, only when given
        }
        if (!Double.isNaN(setup.setupCpuSeconds())) {
            j.field("setupCpuSeconds", setup.setupCpuSeconds(), 3);
        }
        if (c.test().isBandwidth()) {
            j.field("bwUnit", c.reportGbits() ? "Gb/sec" : "MiB/sec");
        }
        if (c.reportAlloc() && !rows.isEmpty()) {
            j.field("allocBytesPerOp", rows.get(rows.size() - 1).allocBytesPerOp(), 2);
        }
        if (c.check()) {
            String what = tally.verifiedText();
            j.key("check").begin().field("verified", tally.verified()).field("what", what == null ? "nothing on this side" : what)
                    .field("failed", tally.failed()).end();
        }
        j.beginArray("sizes");
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
                Files.writeString(tmp, json, StandardCharsets.UTF_8);
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
