package org.jrdma.tools.perf;

import java.time.Duration;
import java.util.function.Consumer;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.tcp.Done;
import org.jrdma.bootstrap.tcp.Link;
import org.jrdma.verbs.Mtu;

/**
 * perftest's out-of-band conversation (ROCEV2-FACTS §6.3) on one TCP connection. Every step is
 * a swap of fixed-size messages in which, as {@code ctx_hand_shake}/{@code ctx_xchg_data_ethernet}
 * do, the <b>client writes first and then reads</b> and the <b>server reads first and then
 * writes</b> (rc_pingpong's exchange, in jrdma-bootstrap, has both sides write first instead).
 * The socket stays open for the synchronisations and the result exchange, as in perftest, and
 * is closed by {@link #close} after the last key exchange and {@code "done"}.
 *
 * <p>Reads that wait while the peer measures (synchronisations, reports, closing) take the run
 * deadline; the steps before the test take the ordinary one.
 */
final class PerfExchange implements AutoCloseable {
    /** perftest sends sysconf(_SC_PAGESIZE) as its cycle buffer; jrdma cycles its RDMA targets within the same bound. */
    static final int CYCLE_BUFFER = 4096;
    static final int CACHE_LINE = 64;
    /** ctx_close_connection writes {@code "done"} with its NUL. */
    static final byte[] DONE = Done.bytes();

    private final PerfPipe channel;
    private final boolean client;
    /** perftest -R: messages are SENDs on a CM-connected QP, key messages binary (see CmPipe). */
    private final boolean rdmaCm;
    private final int gidIndex;
    private final Duration timeout;
    private final Duration runTimeout;
    private PeerVersion peer;

    private PerfExchange(PerfPipe channel, boolean client, Duration timeout, Duration runTimeout) {
        this(channel, client, false, 0, timeout, runTimeout);
    }

    private PerfExchange(PerfPipe channel, boolean client, boolean rdmaCm, int gidIndex, Duration timeout, Duration runTimeout) {
        this.channel = channel;
        this.client = client;
        this.rdmaCm = rdmaCm;
        this.gidIndex = gidIndex;
        this.timeout = timeout;
        this.runTimeout = runTimeout;
    }

    static PerfExchange accept(int port, Duration timeout, Duration runTimeout) {
        return new PerfExchange(PerfChannel.accept(port, timeout), false, timeout, runTimeout);
    }

    /** {@code notices} takes what the connect says on the way (that it retries a refusal, and until when). */
    static PerfExchange connect(String host, int port, Duration timeout, Duration runTimeout, Consumer<String> notices) {
        return new PerfExchange(PerfChannel.connect(host, port, timeout, notices), true, timeout, runTimeout);
    }

    /** {@return where the peer's TCP connection comes from; null over the connection manager or when unknown} */
    java.net.InetAddress peerAddress() {
        return channel instanceof PerfChannel tcp ? tcp.peerAddress() : null;
    }

    /** perftest -R: the same conversation over a connected exchange QP ({@code gidIndex} goes in our key messages). */
    static PerfExchange overRdmaCm(CmPipe pipe, boolean client, int gidIndex, Duration timeout, Duration runTimeout) {
        return new PerfExchange(pipe, client, true, gidIndex, timeout, runTimeout);
    }

    /** One swap in perftest's order. {@code readTimeout} bounds the wait for the peer's bytes. */
    private byte[] swap(byte[] mine, int theirLength, String what, Link.PrefixCheck check, Duration readTimeout) {
        byte[] theirs = new byte[theirLength];
        if (client) {
            channel.write(mine, timeout, "our " + what);
            channel.read(theirs, readTimeout, "peer's " + what, check);
        } else {
            channel.read(theirs, readTimeout, "peer's " + what, check);
            channel.write(mine, timeout, "our " + what);
        }
        return theirs;
    }

    /** Step 2: 16 bytes each way; refuses a peer older than 5.70. */
    PeerVersion versions() {
        peer = PeerVersion.decode(swap(PeerVersion.encodeOurs(), PeerVersion.BYTES, "version", PerfPipe.ANY, timeout));
        peer.requireCompatible();
        return peer;
    }

    PeerVersion peerVersion() {
        return peer;
    }

    /**
     * Step 3 (peer ≥ 5.32): cycle buffer, then cache line size, 4 bytes big-endian each; both
     * sides keep the larger. Returns {cycle buffer, cache line}.
     */
    int[] sysData(int cycleBuffer, int cacheLine) {
        if (!peer.atLeast(PeerVersion.SYS_DATA)) {
            return new int[] {cycleBuffer, cacheLine};
        }
        int theirCycle = be32(swap(be32(cycleBuffer), 4, "cycle buffer size", PerfPipe.ANY, timeout));
        int theirLine = be32(swap(be32(cacheLine), 4, "cache line size", PerfPipe.ANY, timeout));
        if (theirCycle <= 0 || theirCycle > (1 << 30)) {
            throw new MalformedMessageException("cycle_buffer", theirCycle + " is not a buffer size");
        }
        if (theirLine <= 0 || theirLine > 4096) {
            throw new MalformedMessageException("cache_line_size", theirLine + " is not a cache line size");
        }
        return new int[] {Math.max(cycleBuffer, theirCycle), Math.max(cacheLine, theirLine)};
    }

    /**
     * Step 4: the ibv_mtu enum value in ASCII with a NUL ({@code "3\0"} for 1024) — 2 bytes from
     * 5.31 on, 4 before (the ppc fix), none before 5.1. With -R too: the 4 bytes the capture
     * shows are "3\0" and the BTH's 2 pad bytes. Both sides use the smaller MTU.
     */
    Mtu mtu(Mtu mine) {
        if (!peer.atLeast(PeerVersion.MTU_EXCHANGE)) {
            return mine;
        }
        int size = peer.atLeast(PeerVersion.MTU_TWO_BYTES) ? 2 : 4;
        byte[] ours = new byte[size];
        ours[0] = (byte) ('0' + mine.value());
        byte[] theirs = swap(ours, size, "MTU", PerfPipe.ANY, timeout);
        if (theirs[0] < '1' || theirs[0] > '5' || theirs[1] != 0) {
            throw new MalformedMessageException("mtu", Excerpt.of(theirs) + " is not an ibv_mtu value 1..5 with its NUL");
        }
        for (int i = 2; i < size; i++) {
            if (theirs[i] != 0) {
                throw new MalformedMessageException("mtu", Excerpt.of(theirs) + " has bytes after the NUL");
            }
        }
        return mine.min(Mtu.fromValue(theirs[0] - '0'));
    }

    /** Steps 6, 8, 9 and every synchronisation: one key message each way, the GID variant (108 bytes) as on RoCE. */
    KeyMessage keys(KeyMessage mine, String purpose) {
        return keys(mine, purpose, timeout);
    }

    /** A key exchange that waits while the peer measures. */
    KeyMessage sync(KeyMessage mine, String purpose) {
        return keys(mine, purpose, runTimeout);
    }

    private KeyMessage keys(KeyMessage mine, String purpose, Duration readTimeout) {
        if (rdmaCm) {
            return KeyMessageBinary.decode(swap(KeyMessageBinary.encode(mine, gidIndex), KeyMessageBinary.SIZE,
                    "key message (" + purpose + ")", PerfPipe.ANY, readTimeout));
        }
        byte[] theirs = swap(PerftestKeyCodec.GID.encodeKey(mine), PerftestKeyCodec.GID_SIZE, "key message (" + purpose + ")",
                PerftestKeyCodec.GID::checkPrefix, readTimeout);
        return PerftestKeyCodec.GID.decodeKey(theirs);
    }

    /**
     * perftest -R, before and after the test QPs' connection: a key message of zeros each way
     * (perftest swaps its destination before its QPs exist; captured). Any 56 bytes are taken.
     */
    void blankKeys() {
        swap(new byte[KeyMessageBinary.SIZE], KeyMessageBinary.SIZE, "blank key message", PerfPipe.ANY, timeout);
    }

    /** xchg_bw_reports: size, iterations, peak, average, message rate — five swaps of 8 bytes. */
    BwReport reports(BwReport mine) {
        long size = BwReport.u64(swap(BwReport.u64(mine.size()), 8, "report size", PerfPipe.ANY, runTimeout));
        // Iterations travel as 8 bytes when the receiver's peer is ≥ 5.33: we are 6.06, and we refuse < 5.70.
        long iters = BwReport.u64(swap(BwReport.u64(mine.iters()), 8, "report iterations", PerfPipe.ANY, runTimeout));
        double peak = BwReport.f64(swap(BwReport.f64(mine.bwPeak()), 8, "report peak", PerfPipe.ANY, runTimeout));
        double avg = BwReport.f64(swap(BwReport.f64(mine.bwAvg()), 8, "report average", PerfPipe.ANY, runTimeout));
        double rate = BwReport.f64(swap(BwReport.f64(mine.msgRateMpps()), 8, "report message rate", PerfPipe.ANY, runTimeout));
        return new BwReport(size, iters, peak, avg, rate);
    }

    /**
     * ctx_close_connection: one more key exchange, then {@code "done\0"}. perftest writes it and
     * closes without reading the peer's; we read the peer's before closing, so our close never
     * resets a connection on which a perftest peer is still writing its own.
     */
    void close(KeyMessage mine) {
        sync(mine, "closing");
        if (rdmaCm) {
            return; // no "done": the client disconnects the CM connections (PerfSession)
        }
        channel.write(DONE, timeout, "\"done\"");
        channel.read(new byte[Done.LENGTH], timeout, "peer's \"done\"", Done::check);
        channel.close();
    }

    private static byte[] be32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static int be32(byte[] b) {
        return (b[0] & 0xFF) << 24 | (b[1] & 0xFF) << 16 | (b[2] & 0xFF) << 8 | (b[3] & 0xFF);
    }

    /** Whether the peer has gone (see {@link PerfPipe#peerClosed}); never takes a message. */
    boolean peerClosed() {
        return channel.peerClosed();
    }

    /** Releases the socket (after an error; {@link #close(KeyMessage)} is the orderly end). */
    @Override
    public void close() {
        channel.close();
    }
}
