package org.jrdma.tools.perf;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;

/**
 * Every option that depends on this side alone, checked against the device and the file system
 * before any network activity: perftest finds most of these in ctx_init, after the connection,
 * so a server waited for a client (or a client connected) only to learn that the local GID
 * index does not exist. Each failure is one line naming the option, the limit and what to do.
 * What depends on the peer (the path MTU, its {@code -o}) is checked when it is known.
 */
final class LocalLimits {
    private LocalLimits() {
    }

    /**
     * @param mine this side's MTU (the path MTU is at most this)
     * @param sendDepth the send queue each QP will have; {@code recvDepth} its receive queue
     */
    static void check(Context ctx, String deviceName, PerfConfig c, DeviceAttr attr, PortAttr port, Mtu mine, int sendDepth,
            int recvDepth) {
        if (c.gidIndex() >= port.gidTblLen()) {
            throw invalid("--gid-index " + c.gidIndex() + ": device " + deviceName + " has " + port.gidTblLen() + " GID"
                    + (port.gidTblLen() == 1 ? " (index 0)" : "s (0.." + (port.gidTblLen() - 1) + ")")
                    + "; 'jrdma devinfo -d " + deviceName + " -v' lists them");
        }
        ctx.queryGid(QpConnector.PORT, c.gidIndex()); // the provider's own word on it
        long maxMessage = Math.min(attr.maxMsgSize(), Integer.toUnsignedLong(port.maxMsgSize()));
        int largest = c.maxSize(mine);
        if (largest > maxMessage) {
            throw invalid((c.all() ? "--all goes up to " + largest + " bytes" : "--size " + largest) + ", above device "
                    + deviceName + "'s max_msg_sz " + maxMessage);
        }
        if (c.connection() == QpType.UD && c.sizeGiven() && c.size() > mine.bytes()) {
            throw invalid("--size " + c.size() + ": a UD message is at most the path MTU, and this side's is "
                    + mine.bytes() + " bytes");
        }
        if (c.qps() > attr.maxQp()) {
            throw invalid("--qp " + c.qps() + " is above device " + deviceName + "'s max_qp " + attr.maxQp());
        }
        if ((long) c.qps() + c.idleQps() > attr.maxQp()) {
            throw invalid("--qp " + c.qps() + " + --idle-qps " + c.idleQps() + " is above device " + deviceName + "'s max_qp "
                    + attr.maxQp());
        }
        if (sendDepth > attr.maxQpWr()) {
            throw invalid("a send queue of " + sendDepth + " (--tx-depth, or send_lat's --cq-mod) is above device "
                    + deviceName + "'s max_qp_wr " + attr.maxQpWr());
        }
        if (recvDepth > attr.maxQpWr()) {
            throw invalid("--rx-depth " + recvDepth + " is above device " + deviceName + "'s max_qp_wr " + attr.maxQpWr());
        }
        long sendCq = PerfResources.sendCqEntries(c, sendDepth);
        long recvCq = PerfResources.recvCqEntries(c, recvDepth);
        if (Math.max(sendCq, recvCq) > attr.maxCqe()) {
            throw invalid("--qp " + c.qps() + " × " + (sendCq >= recvCq ? "a send queue of " + sendDepth : "--rx-depth " + recvDepth)
                    + " needs a CQ of " + Math.max(sendCq, recvCq) + " entries, above device " + deviceName + "'s max_cqe "
                    + attr.maxCqe() + "; give fewer QPs or a smaller depth");
        }
        if (c.verb().usesReadResources() && c.outReads() > attr.maxQpRdAtom()) {
            throw invalid("--outs " + c.outReads() + " is above device " + deviceName + "'s max_qp_rd_atom "
                    + attr.maxQpRdAtom());
        }
        if (c.jsonFile() != null) {
            checkWritable(c.jsonFile());
        }
        checkTimestamps(c, Runtime.getRuntime().maxMemory());
    }

    /**
     * A run by iterations keeps a timestamp per iteration on the side that posts (perftest's
     * tposted/tcompleted): 8 bytes per iteration of every QP, and as much again for the
     * completions a bandwidth sender times (every one with --check) or the samples a latency
     * side sorts. They must fit in a Java array and in the heap, or the run would fail with an
     * OutOfMemoryError after the connection.
     */
    static void checkTimestamps(PerfConfig c, long heapBytes) {
        if (c.byDuration()) {
            return; // no per-iteration arrays
        }
        boolean bw = c.test().isBandwidth();
        boolean posts = bw ? !c.isServer() || c.bidirectional() : !c.isServer() || !c.verb().usesReadResources();
        if (!posts) {
            return;
        }
        long n = (long) Math.max(c.iters(), c.warmup()) * (bw ? c.qps() : 1); // the warm-up's arrays come and go first
        long perIteration = bw ? 8 + 16 / (c.check() ? 1 : Math.max(1, Math.min(c.cqMod(), c.txDepth()))) : 16;
        long bytes = n * perIteration;
        if (n > Integer.MAX_VALUE - 8 || bytes > heapBytes / 2) {
            throw invalid("--iters " + c.iters() + (bw ? " × --qp " + c.qps() : "") + " keeps a timestamp per iteration: "
                    + gib(bytes) + ", more than this JVM can hold (heap " + gib(heapBytes)
                    + "; JAVA_TOOL_OPTIONS=-Xmx… gives it more); --duration measures a long run without them");
        }
    }

    private static String gib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    /** --out_json_file: written at the end, by way of a temporary file beside it; its directory must be there now. */
    static void checkWritable(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            throw invalid("--out_json_file " + file + ": directory " + dir + (Files.exists(dir) ? " is not a directory"
                    : " does not exist") + " (create it, or name a file in another)");
        }
        if (!Files.isWritable(dir)) {
            throw invalid("--out_json_file " + file + ": directory " + dir + " is not writable by this user");
        }
        if (Files.isDirectory(file)) {
            throw invalid("--out_json_file " + file + " is a directory; name a file");
        }
    }

    private static VerbsException invalid(String message) {
        return new VerbsException(Errno.EINVAL, message);
    }
}
