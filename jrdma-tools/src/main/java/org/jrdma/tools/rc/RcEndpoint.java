package org.jrdma.tools.rc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ConnectListener;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.ExchangeEvent;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.tools.FailedCompletion;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * One side of a ping-pong (the demo runs two, {@code jrdma pingpong} one): its own context,
 * PD, CQ (and channel with {@code -e}), registered buffers and QP — RC, or UC / UD as
 * ibv_uc_pingpong and ibv_ud_pingpong — connected through {@link RcConnector}; then
 * rc_pingpong's loop. On UD every receive starts with the 40-byte GRH area, and the message
 * follows it.
 * Records the time of every phase so the demo can print it and a test can check the order.
 */
public final class RcEndpoint implements AutoCloseable, ConnectListener {
    static final long SEND_WR_ID = 1L << 62;
    /** Pattern salts: each direction's bytes differ, so an echo of one's own data fails. */
    public static final int SERVER_SALT = 0x5e;
    public static final int CLIENT_SALT = 0xc1;
    /** The longest single wait on the completion channel (with {@code -e}): a constant, so a wait allocates nothing. */
    private static final Duration MAX_WAIT = Duration.ofSeconds(1);
    private static final long MAX_WAIT_NANOS = MAX_WAIT.toNanos();

    public final String role;
    public final int salt;
    private final EndpointConfig config;
    private final Context ctx;
    private final boolean ownsContext;
    private final ProtectionDomain pd;
    private final CompletionChannel channel;
    private final CompletionQueue cq;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment sendBuf;
    private final MemorySegment recvBuf;
    private final MemoryRegion sendMr;
    private final MemoryRegion recvMr;
    private final int slotBytes;
    /** Receive buffers: message i lands in slot i % slots (one message is in flight at a time). */
    private final int slots;
    private final int grh;
    private final WorkCompletion[] wcs = {new WorkCompletion()};
    private final SendWorkRequest sendWr = new SendWorkRequest();
    private final RecvWorkRequest recvWr = new RecvWorkRequest();
    private final Sge sendSge = new Sge();
    private final Sge recvSge = new Sge();
    /** With {@code -c}: what every received message must be; null without. */
    private final MessageCheck check;
    private RcConnection connection;
    private volatile Consumer<String> notices = line -> { };
    private boolean armed;
    private long sendsDone;
    private long recvsDone;

    // Phase times (System.nanoTime), written by this side's thread, read after latches.
    public volatile long startNanos;
    public volatile long connectedNanos;
    public volatile long receivedNanos;
    public volatile long closedNanos;
    public volatile long initNanos;
    public volatile long rtrNanos;
    public volatile long rtsNanos;
    public volatile ConnInfo local;
    public volatile ConnInfo remote;
    public final CountDownLatch connected = new CountDownLatch(1);
    public final CountDownLatch exchanged = new CountDownLatch(1);
    public final CountDownLatch closed = new CountDownLatch(1);
    public final CountDownLatch ready = new CountDownLatch(1);
    /** {@code salt} is {@link #SERVER_SALT} or {@link #CLIENT_SALT}: the role this side plays in the loop. */
    public RcEndpoint(Device device, String role, int salt, EndpointConfig config) {
        this(device.open(), true, role, salt, config);
    }

    /**
     * An endpoint on a context it does not own — librdmacm's (CmId.verbs()), where rdma_create_qp
     * wants the PD: its close releases what it made there and leaves the context open.
     */
    public RcEndpoint(Context shared, String role, int salt, EndpointConfig config) {
        this(shared, false, role, salt, config);
    }

    private RcEndpoint(Context ctx, boolean ownsContext, String role, int salt, EndpointConfig config) {
        if (salt != SERVER_SALT && salt != CLIENT_SALT) {
            throw new IllegalArgumentException("salt must be SERVER_SALT or CLIENT_SALT, not " + salt);
        }
        this.role = role;
        this.salt = salt;
        this.config = config;
        this.ctx = ctx;
        this.ownsContext = ownsContext;
        this.pd = ctx.allocPd();
        this.channel = config.events() ? ctx.createCompChannel() : null;
        this.cq = ctx.createCq(config.rxDepth() + 2, channel);
        this.grh = config.receiveBytes() - config.size();
        this.slotBytes = Math.max(1, config.receiveBytes());
        this.slots = Math.min(config.rxDepth(), EndpointConfig.RX_DEPTH);
        this.sendBuf = ctx.allocateMemory(Math.max(1, config.size()), arena);
        this.recvBuf = ctx.allocateMemory((long) slotBytes * slots, arena);
        this.sendMr = pd.registerMemory(sendBuf, AccessFlags.LOCAL_WRITE, arena);
        this.recvMr = pd.registerMemory(recvBuf, AccessFlags.LOCAL_WRITE, arena);
        boolean server = salt == SERVER_SALT;
        this.check = config.verify()
                ? new MessageCheck(role, server, salt, server ? CLIENT_SALT : SERVER_SALT, config.size(), arena)
                : null;
    }

    /** Where the exchange's notices go (a client retrying a refused connect says so once); none by default. */
    public RcEndpoint withNotices(Consumer<String> sink) {
        this.notices = java.util.Objects.requireNonNull(sink, "sink");
        return this;
    }

    public Context context() {
        return ctx;
    }

    /** Steps 1–4: exchange over {@code exchange}, which closes its channel, then RESET→INIT→RTR→RTS. */
    public void connect(Exchange exchange) {
        startNanos = System.nanoTime();
        RcOptions options = RcOptions.defaults(cq)
                .withQpType(config.transport())
                .withSl(config.sl())
                .withMtu(config.mtu())
                .withGidIndex(config.gidIndex())
                .withCap(new QpCap(1, config.rxDepth(), 1, 1, 0))
                .onInit(qp -> {
                    for (int n = 0; n < config.rxDepth(); n++) {
                        postRecv(qp, n);
                    }
                });
        connection = RcConnector.connect(pd, exchange, options, this);
    }

    /**
     * Steps 1–4 by the connection manager instead of an exchange: {@code maker} creates the QP
     * (the CM's createQp, which moves it to INIT), the receives are posted at once, and
     * {@code connect} makes the connection (the CM moves the QP to RTR and RTS) and returns
     * both sides' info. The times are the CM's steps: connected = address and route known,
     * exchanged = REQ/REP done, closed = the same instant (there is no channel to close).
     */
    public void connectByCm(java.util.function.Function<QpInitAttr, QueuePair> maker, CmSteps connect) {
        QueuePair qp = maker.apply(new QpInitAttr().qpType(config.transport()).cq(cq)
                .cap(new QpCap(1, config.rxDepth(), 1, 1, 0)));
        initNanos = System.nanoTime();
        for (int n = 0; n < config.rxDepth(); n++) {
            postRecv(qp, n);
        }
        ConnInfo[] infos = connect.run(qp, this);
        local = infos[0];
        remote = infos[1];
        connection = new RcConnection(qp, infos[0], infos[1]);
        receivedNanos = System.nanoTime();
        rtrNanos = receivedNanos;
        rtsNanos = receivedNanos;
        exchanged.countDown();
        closed.countDown();
        ready.countDown();
    }

    /** The CM's part of {@link #connectByCm}: connect the QP and return {local, remote}. */
    public interface CmSteps {
        ConnInfo[] run(QueuePair qp, RcEndpoint endpoint);
    }

    /** Called first on the CM path: the clock of steps 1–4 starts (and no channel will need closing). */
    public void cmStarted() {
        startNanos = System.nanoTime();
        closedNanos = startNanos;
    }

    /** Called on the CM path once the address and route are known (or the listener is up). */
    public void cmResolved() {
        connectedNanos = System.nanoTime();
        connected.countDown();
    }

    public ProtectionDomain pd() {
        return pd;
    }

    public QueuePair qp() {
        return connection.qp();
    }

    @Override
    public void onEvent(ExchangeEvent e) {
        switch (e.phase()) {
            case CONNECTED -> {
                connectedNanos = e.nanoTime();
                connected.countDown();
            }
            case RECEIVED -> {
                receivedNanos = e.nanoTime();
                exchanged.countDown();
            }
            case CLOSED -> {
                closedNanos = e.nanoTime();
                closed.countDown();
            }
            case RETRYING -> notices.accept(e.detail());
            default -> {
            }
        }
    }

    @Override
    public void onLocalInfo(ConnInfo info, long nanoTime) {
        local = info;
    }

    @Override
    public void onRemoteInfo(ConnInfo info, long nanoTime) {
        remote = info;
        // Exchanges without a connection (file, static) have no CONNECTED / RECEIVED events.
        if (connectedNanos == 0) {
            connectedNanos = startNanos;
            connected.countDown();
        }
        if (receivedNanos == 0) {
            receivedNanos = nanoTime;
            exchanged.countDown();
        }
    }

    @Override
    public void onQpState(QpState state, long nanoTime) {
        switch (state) {
            case INIT -> initNanos = nanoTime;
            case RTR -> rtrNanos = nanoTime;
            case RTS -> {
                rtsNanos = nanoTime;
                ready.countDown();
            }
            default -> {
            }
        }
    }

    /** Posts receive number {@code n} (its wr_id), into slot n % slots. */
    private void postRecv(QueuePair qp, long n) {
        recvSge.set(recvMr.addr() + (n % slots) * slotBytes, config.receiveBytes(), recvMr.lkey());
        recvWr.wrId(n).sg(recvSge);
        qp.postRecv(recvWr);
    }

    private void postSend(long iteration) {
        // Always this layout, -c or not: an rdma-core peer with -c checks its page-start zeros.
        PingpongMessage.write(sendBuf, 0, config.size(), iteration, salt);
        sendSge.set(sendMr.addr(), config.size(), sendMr.lkey());
        sendWr.wrId(SEND_WR_ID | iteration).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(sendSge);
        if (connection.peerAh() != null) {
            sendWr.ud(connection.peerAh(), connection.remote().qpn(), org.jrdma.bootstrap.RcOptions.PINGPONG_QKEY);
        }
        qp().postSend(sendWr);
    }

    /** The client's side of a round trip: send i, then wait for its completion and the reply. */
    public void clientRound(long i) {
        postSend(i);
        while (sendsDone <= i || recvsDone <= i) {
            handle(nextCompletion());
        }
    }

    /** The server's side: wait for message i, then reply (after the previous reply completed). */
    public void serverRound(long i) {
        while (recvsDone <= i) {
            handle(nextCompletion());
        }
        while (sendsDone < i) {
            handle(nextCompletion());
        }
        postSend(i);
    }

    public void drainSends(long count) {
        while (sendsDone < count) {
            handle(nextCompletion());
        }
    }

    /** Messages checked (0 without {@code -c}). */
    public long verified() {
        return check == null ? 0 : check.verified();
    }

    /** With {@code -c}, what was checked ("N messages verified", and how when the peer is not jrdma); else null. */
    public String checkSummary() {
        return check == null ? null : check.summary();
    }

    private void handle(WorkCompletion wc) {
        if (wc.status != WcStatus.SUCCESS) {
            throw failed(role, wc);
        }
        if (wc.opcode == WcOpcode.RECV) {
            long n = wc.wrId;
            if (wc.byteLen != config.receiveBytes()) {
                throw new VerbsException(Errno.EIO, role + ": received " + wc.byteLen + " bytes, expected " + config.receiveBytes()
                        + (grh > 0 ? " (the GRH and " + config.size() + ")" : "") + ": does the peer run with -s "
                        + (wc.byteLen - grh) + "? Both sides need the same -s");
            }
            if (check != null) {
                check.received(recvBuf, (n % slots) * slotBytes + grh, recvsDone);
            }
            recvsDone++;
            postRecv(qp(), n + config.rxDepth());
        } else {
            sendsDone++;
        }
    }

    /** A failed completion as the tool says it: which message, the ibv status, and for a retry error the likely cause. */
    static VerbsException failed(String role, WorkCompletion wc) {
        String which = (wc.wrId & SEND_WR_ID) != 0 ? "the send of message " + (wc.wrId & ~SEND_WR_ID) : "receive " + wc.wrId;
        return new VerbsException(Errno.EIO, role + ": " + which + " failed: " + FailedCompletion.status(wc.status)
                + FailedCompletion.meaning(wc.status, "the peer",
                        s -> s == WcStatus.REM_INV_REQ_ERR || s == WcStatus.LOC_LEN_ERR ? "the same -s and -m" : null));
    }

    /** Busy-polls (perftest's way), or with {@code -e} sleeps on the completion channel. */
    private WorkCompletion nextCompletion() {
        long deadline = System.nanoTime() + config.timeout().toNanos();
        while (true) {
            if (cq.poll(wcs, 1) == 1) {
                return wcs[0];
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new VerbsException(Errno.ETIMEDOUT, role + ": no completion within " + config.timeout().toMillis()
                        + " ms (sent " + sendsDone + ", received " + recvsDone + "): the peer sent nothing more (it exited, or is"
                        + " stopped)" + (config.transport() == QpType.RC ? ""
                                : ", or a message was lost (" + config.transport() + " has no retransmission)"));
            }
            if (channel == null) {
                Thread.onSpinWait();
            } else if (!armed) {
                // Arm, then poll again: a completion that landed before arming raises no event.
                cq.requestNotify(false);
                armed = true;
            } else {
                try {
                    // A fixed wait of up to a second, so that a wait allocates no Duration; only the
                    // last second before the deadline needs one of its own. A wait that times out
                    // leaves the CQ armed: poll again, and the deadline above says when to give up.
                    channel.getEvent(left >= MAX_WAIT_NANOS ? MAX_WAIT : Duration.ofNanos(left)).ackEvents(1);
                    armed = false;
                } catch (VerbsException e) {
                    if (e.errno() != Errno.ETIMEDOUT) {
                        throw e;
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        try {
            if (connection != null) {
                connection.close();
            }
            if (ownsContext) {
                ctx.close();
            } else { // in dependency order: the QP went with the connection
                sendMr.close();
                recvMr.close();
                cq.close();
                if (channel != null) {
                    channel.close();
                }
                pd.close();
            }
        } finally {
            arena.close();
        }
    }
}
