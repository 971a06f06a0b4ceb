package org.jrdma.bootstrap.tcp;

import java.time.Duration;
import java.util.Objects;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.SeedBinaryCodec;

/**
 * How a {@link TcpExchange} talks.
 *
 * @param codec          the fixed-size message both sides send
 * @param doneTerminator after the messages, the client writes {@code "done\0"} (5 bytes) and the
 *                       server reads exactly that, as rc_pingpong does (ROCEV2-FACTS §5.1 step 4)
 * @param ioTimeout      deadline of each of connect, write and read; absolute over the whole step
 *                       and never extended by progress (OOB-04)
 * @param acceptTimeout  how long a server waits for its one peer; separate from {@code ioTimeout}
 *                       because a tool's server waits for a human to start the client, while a
 *                       connected peer that stalls should be cut off quickly
 * @param security       {@link TcpSecurity#plain()} (rc_pingpong's exchange, the default), a
 *                       pre-shared key or TLS; the latter two authenticate the peer before
 *                       any connection info is sent (OOB-11, AUTH-01)
 * @param bindGidToPeer  strict mode (OOB-09): the peer's GID must be the RoCE GID of the address
 *                       the exchange came from, so a peer (or whoever forged its message) cannot
 *                       point our writes at a third host. Off by default: a host's exchange
 *                       address and its RDMA address often differ (management network, loopback)
 */
public record TcpOptions(ConnInfoCodec codec, boolean doneTerminator, Duration ioTimeout, Duration acceptTimeout,
        TcpSecurity security, boolean bindGidToPeer) {
    /** The default deadline of each step: 10 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Checks the options.
     *
     * @throws NullPointerException if {@code codec} or {@code security} is null
     * @throws IllegalArgumentException if a timeout is not a positive duration
     */
    public TcpOptions {
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(security, "security");
        requirePositive(ioTimeout, "ioTimeout");
        requirePositive(acceptTimeout, "acceptTimeout");
    }

    /**
     * rc_pingpong-compatible: 52-byte text message, then "done", 10 s deadlines.
     *
     * @return the options
     */
    public static TcpOptions rcPingpong() {
        return new TcpOptions(PingpongTextCodec.INSTANCE, true, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, TcpSecurity.plain(), false);
    }

    /**
     * perftest's 108-byte key message ({@link PerftestKeyCodec#GID}), which carries a buffer's
     * rkey and address besides what the QP needs ({@code RcOptions.exposing},
     * {@code RcConnection.remoteBuffer}); then "done" and 10 s deadlines as {@link #rcPingpong}.
     * It is the message of perftest's exchange, not the whole of it (no version, system data or
     * MTU steps), so it does not talk to perftest's {@code ib_write_bw}; {@code jrdma perf} does.
     *
     * @return the options
     */
    public static TcpOptions perftest() {
        return new TcpOptions(PerftestKeyCodec.GID, true, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, TcpSecurity.plain(), false);
    }

    /**
     * A copy that sends another fixed-size message, e.g.
     * {@code PerftestKeyCodec.GID.withOutReads(16)}.
     *
     * @param c the codec both sides use
     * @return the copy
     */
    public TcpOptions withCodec(ConnInfoCodec c) {
        return new TcpOptions(c, doneTerminator, ioTimeout, acceptTimeout, security, bindGidToPeer);
    }

    /**
     * The seed's 28-byte binary message, no terminator, 10 s deadlines.
     *
     * @return the options
     */
    public static TcpOptions seedBinary() {
        return new TcpOptions(SeedBinaryCodec.INSTANCE, false, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, TcpSecurity.plain(), false);
    }

    /**
     * A copy with the same deadline for connect, accept, write and read.
     *
     * @param timeout a positive duration
     * @return the copy
     */
    public TcpOptions withTimeout(Duration timeout) {
        return new TcpOptions(codec, doneTerminator, timeout, timeout, security, bindGidToPeer);
    }

    /**
     * A copy with another deadline for each of connect, write and read.
     *
     * @param timeout a positive duration
     * @return the copy
     */
    public TcpOptions withIoTimeout(Duration timeout) {
        return new TcpOptions(codec, doneTerminator, timeout, acceptTimeout, security, bindGidToPeer);
    }

    /**
     * A copy with another time a server waits for its peer.
     *
     * @param timeout a positive duration
     * @return the copy
     */
    public TcpOptions withAcceptTimeout(Duration timeout) {
        return new TcpOptions(codec, doneTerminator, ioTimeout, timeout, security, bindGidToPeer);
    }

    /**
     * The same exchange, authenticated (or not) as {@code s} says; both sides must agree.
     *
     * @param s plain, pre-shared key or TLS
     * @return the copy
     */
    public TcpOptions withSecurity(TcpSecurity s) {
        return new TcpOptions(codec, doneTerminator, ioTimeout, acceptTimeout, s, bindGidToPeer);
    }

    /**
     * Strict mode on or off (OOB-09); see {@code bindGidToPeer}.
     *
     * @param strict whether the peer's GID must be its exchange address's RoCE GID
     * @return the copy
     */
    public TcpOptions withGidBoundToPeer(boolean strict) {
        return new TcpOptions(codec, doneTerminator, ioTimeout, acceptTimeout, security, strict);
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, not " + d);
        }
    }
}
