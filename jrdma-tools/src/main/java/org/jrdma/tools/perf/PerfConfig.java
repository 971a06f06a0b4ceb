package org.jrdma.tools.perf;

import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpType;

/**
 * One side's settings, checked by {@link PerfCommand}. As with perftest, both sides must be
 * given the same test flags (size, iterations, QPs, -b, -D, -c …): perftest ≥ 6.28 negotiates
 * them, but jrdma presents itself as 6.06 and so does not (see {@link PeerVersion}).
 *
 * @param host the server to connect to, or null to be the server
 * @param device device name, or null for the first
 * @param size bytes per message
 * @param sizeGiven {@code -s} was given (else a UD run shrinks the default size to the path MTU, as perftest)
 * @param all run every power of two from 2 to {@link #MAX_ALL_SIZE} (perftest {@code -a})
 * @param durationSeconds run for this long instead of {@code iters} (0: by iterations)
 * @param inlineSize max inline data, or -1 for the test's default (resolved by {@link #resolved})
 * @param mtu the path MTU asked for, or null for the port's active MTU (as perftest)
 * @param rxDepth receives kept posted per QP by a SEND receiver
 * @param cqMod a send WR is signaled every {@code cqMod} WRs per QP (perftest {@code -Q})
 * @param outReads READs/atomics this side accepts in flight (max_dest_rd_atomic), sent to the peer
 * @param jsonFile where {@code --out_json} writes, or null for no JSON
 * @param timeout deadline of each TCP step (accept included) and of each wait for a completion
 * @param runTimeout how long a side may wait over TCP while the peer measures
 * @param warmup unmeasured iterations before each size's run (jrdma's own flag; both sides, like {@code -n})
 * @param rdmaCm perftest {@code -R}: the connection manager connects an exchange QP and the test QP (no TCP)
 * @param postList perftest {@code -l}: a bandwidth sender posts this many WRs per post call, as one list
 * @param cqModFromPostList {@code -Q} was not given with {@code -l} > 1, so {@code cqMod} is the list's size (perftest says so)
 * @param idleQps jrdma's {@code --idle-qps}: RC QPs this side holds connected at RTS beside the test's, which carry
 *                nothing (see {@link IdleQps}); local to each side, never exchanged
 * @param extras perftest's {@code -u -S -N -H -z --perform_warm_up --run_infinitely} ({@link Extras#NONE}: none given)
 */
public record PerfConfig(PerfTest test, String host, String device, int port, int size, boolean sizeGiven, boolean all, int iters,
        int durationSeconds, int qps, boolean bidirectional, boolean events, int inlineSize, Mtu mtu, int gidIndex,
        int txDepth, int rxDepth, int cqMod, int outReads, QpType connection, AtomicType atomicType,
        boolean reportGbits, Path jsonFile, boolean check, boolean reportAlloc, Duration timeout, Duration runTimeout,
        int warmup, boolean rdmaCm, int postList, boolean cqModFromPostList, int idleQps, Extras extras) {

    /**
     * perftest flags that change one side's QPs or report, not the exchange.
     *
     * @param qpTimeout {@code -u}: the RC local ACK timeout exponent (4.096 µs × 2^t), 0..31; perftest's DEF_QP_TIME is 14
     * @param sl {@code -S}: the service level in the address vector (RTR's ah_attr.sl, UD's address handle), 0..15
     * @param noPeak {@code -N}: no peak bandwidth (the column reads 0.00, as perftest prints it)
     * @param histogram {@code -H}: latency tests print every sorted sample first ("#, usec" then "i, t")
     * @param commRdmaCm {@code -z}: the key exchange runs over an rdma_cm-connected QP, the test QPs are connected by verbs
     * @param performWarmUp {@code --perform_warm_up}: write_bw, read_bw and atomic_bw post one send queue's worth
     *                      (-t, or one -l list) per QP unmeasured before the test, as perftest's perform_warm_up
     * @param runInfinitely {@code --run_infinitely}: a bandwidth test prints a row every -D seconds until killed
     */
    public record Extras(int qpTimeout, int sl, boolean noPeak, boolean histogram, boolean commRdmaCm, boolean performWarmUp,
            boolean runInfinitely) {
        /** perftest's DEF_QP_TIME. */
        public static final int DEFAULT_QP_TIMEOUT = 14;
        public static final Extras NONE = new Extras(DEFAULT_QP_TIMEOUT, 0, false, false, false, false, false);
    }

    /** Without perftest's -u -S -N -H -z --perform_warm_up --run_infinitely. */
    public PerfConfig(PerfTest test, String host, String device, int port, int size, boolean sizeGiven, boolean all, int iters,
            int durationSeconds, int qps, boolean bidirectional, boolean events, int inlineSize, Mtu mtu, int gidIndex,
            int txDepth, int rxDepth, int cqMod, int outReads, QpType connection, AtomicType atomicType,
            boolean reportGbits, Path jsonFile, boolean check, boolean reportAlloc, Duration timeout, Duration runTimeout,
            int warmup, boolean rdmaCm, int postList, boolean cqModFromPostList, int idleQps) {
        this(test, host, device, port, size, sizeGiven, all, iters, durationSeconds, qps, bidirectional, events, inlineSize, mtu,
                gidIndex, txDepth, rxDepth, cqMod, outReads, connection, atomicType, reportGbits, jsonFile, check, reportAlloc,
                timeout, runTimeout, warmup, rdmaCm, postList, cqModFromPostList, idleQps, Extras.NONE);
    }

    /** Without a post list (one WR per post) and without idle QPs. */
    public PerfConfig(PerfTest test, String host, String device, int port, int size, boolean sizeGiven, boolean all, int iters,
            int durationSeconds, int qps, boolean bidirectional, boolean events, int inlineSize, Mtu mtu, int gidIndex,
            int txDepth, int rxDepth, int cqMod, int outReads, QpType connection, AtomicType atomicType,
            boolean reportGbits, Path jsonFile, boolean check, boolean reportAlloc, Duration timeout, Duration runTimeout,
            int warmup, boolean rdmaCm) {
        this(test, host, device, port, size, sizeGiven, all, iters, durationSeconds, qps, bidirectional, events, inlineSize, mtu,
                gidIndex, txDepth, rxDepth, cqMod, outReads, connection, atomicType, reportGbits, jsonFile, check, reportAlloc,
                timeout, runTimeout, warmup, rdmaCm, 1, false, 0);
    }

    /** This configuration with max inline data and receive depth settled against the device. */
    PerfConfig resolved(int inline, int receiveDepth) {
        return new PerfConfig(test, host, device, port, size, sizeGiven, all, iters, durationSeconds, qps, bidirectional, events,
                inline, mtu, gidIndex, txDepth, receiveDepth, cqMod, outReads, connection, atomicType, reportGbits,
                jsonFile, check, reportAlloc, timeout, runTimeout, warmup, rdmaCm, postList, cqModFromPostList, idleQps, extras);
    }

    /** This configuration with another message size (UD's default shrunk to the MTU). */
    PerfConfig withSize(int newSize) {
        return new PerfConfig(test, host, device, port, newSize, sizeGiven, all, iters, durationSeconds, qps, bidirectional,
                events, inlineSize, mtu, gidIndex, txDepth, rxDepth, cqMod, outReads, connection, atomicType, reportGbits,
                jsonFile, check, reportAlloc, timeout, runTimeout, warmup, rdmaCm, postList, cqModFromPostList, idleQps, extras);
    }

    /** The key exchange runs over rdma_cm: -R (test QPs by the CM too) or -z (test QPs by verbs). */
    boolean cmExchange() {
        return rdmaCm || extras.commRdmaCm();
    }

    /** perftest's {@code -a} loops 2^1 … 2^23. */
    public static final int MAX_ALL_SIZE = 1 << 23;

    public boolean isServer() {
        return host == null;
    }

    boolean byDuration() {
        return durationSeconds > 0;
    }

    Verb verb() {
        return test.verb();
    }

    /** The message sizes to run: one, or with {@code -a} 2 … 2^23 (UD: up to the path MTU). */
    int[] sizes(Mtu pathMtu) {
        if (!all) {
            return new int[] {size};
        }
        int max = connection == QpType.UD ? pathMtu.bytes() : MAX_ALL_SIZE;
        int n = 0;
        for (int s = 2; s <= max; s <<= 1) {
            n++;
        }
        int[] sizes = new int[n];
        for (int i = 0, s = 2; i < n; i++, s <<= 1) {
            sizes[i] = s;
        }
        return sizes;
    }

    /** The largest message of the run. */
    int maxSize(Mtu pathMtu) {
        int[] s = sizes(pathMtu);
        return s[s.length - 1];
    }
}
