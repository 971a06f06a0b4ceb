package org.jrdma.tools.rping;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.jrdma.bootstrap.tcp.HostName;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.tools.FailedCompletion;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
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
 * One rping endpoint's verbs resources on a CM id, as rping's setup_qp/setup_buffers: a PD and
 * CQ on the id's device context ({@code cm_id->verbs}), an RC QP made by the CM, a receive
 * buffer and a send buffer of one {@link RdmaInfo} each, the RDMA buffer of {@code size}
 * bytes, and (client) the start buffer the server READs. Its CM events come from {@code
 * events}, which never blocks: the client's own event channel, or a server session's share of
 * the listener's channel.
 */
final class RpingConnection implements AutoCloseable {
    private static final long RECV_WR = 1;
    private static final long SEND_WR = 2;
    private static final long RDMA_WR = 3;
    private static final int SPINS_BEFORE_PARK = 2000;

    final CmId id;
    final int size;
    final MemorySegment rdmaBuf;
    final MemorySegment startBuf;
    final MemoryRegion rdmaMr;
    final MemoryRegion startMr;
    private final Supplier<CmEvent> events;
    /** Who is at the other end, for messages: "client" or "server". */
    private final String peer;
    private final Duration timeout;
    private final Arena arena = Arena.ofShared();
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final MemorySegment recvBuf;
    /** Bytes the last receive completion delivered into {@link #recvBuf}. */
    private int receivedBytes;
    private final MemorySegment sendBuf;
    private final MemoryRegion recvMr;
    private final MemoryRegion sendMr;
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private final SendWorkRequest wr = new SendWorkRequest();
    private final Sge sge = new Sge();
    private boolean disconnected;
    /** SENDs posted whose completion has not been polled yet. */
    private int sendsPending;

    RpingConnection(CmId id, Supplier<CmEvent> events, int size, boolean withStartBuf, Duration timeout) {
        this.id = id;
        this.events = events;
        this.peer = withStartBuf ? "server" : "client";
        this.size = size;
        this.timeout = timeout;
        this.pd = id.verbs().allocPd();
        this.cq = id.verbs().createCq(16, null);
        this.qp = id.createQp(pd, new QpInitAttr().qpType(QpType.RC).cq(cq).cap(new QpCap(16, 2, 1, 1, 0)));
        this.recvBuf = arena.allocate(RdmaInfo.BYTES, 8);
        this.sendBuf = arena.allocate(RdmaInfo.BYTES, 8);
        this.rdmaBuf = arena.allocate(size, 64);
        this.recvMr = pd.registerMemory(recvBuf, AccessFlags.LOCAL_WRITE, arena);
        this.sendMr = pd.registerMemory(sendBuf, 0, arena);
        int remote = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE;
        this.rdmaMr = pd.registerMemory(rdmaBuf, remote, arena);
        this.startBuf = withStartBuf ? arena.allocate(size, 64) : null;
        this.startMr = withStartBuf ? pd.registerMemory(startBuf, remote, arena) : null;
        postRecv();
    }

    void postRecv() {
        qp.postRecv(new RecvWorkRequest().wrId(RECV_WR).sg(sge.set(recvMr.addr(), RdmaInfo.BYTES, recvMr.lkey())));
    }

    /** Posts a signaled SEND of the send buffer, which holds {@code info} (or whatever it held). */
    void send(RdmaInfo info) {
        if (info != null) {
            info.writeTo(sendBuf);
        }
        wr.wrId(SEND_WR).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(sge.set(sendMr.addr(), RdmaInfo.BYTES, sendMr.lkey()));
        qp.postSend(wr);
        sendsPending++;
    }

    /**
     * Waits until every SEND posted so far has completed (the peer's device acknowledged it),
     * whichever completions {@link #await} skipped on the way; false if the peer disconnected.
     */
    boolean awaitSends() {
        while (sendsPending > 0) {
            if (!await(WcOpcode.SEND)) {
                return false;
            }
        }
        return true;
    }

    /** RDMA READ ({@code read}) or WRITE of {@code length} bytes between the RDMA buffer and the peer's advertised one. */
    void rdma(boolean read, RdmaInfo peer, int length) {
        wr.wrId(RDMA_WR).opcode(read ? WrOpcode.RDMA_READ : WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                .sg(sge.set(rdmaMr.addr(), length, rdmaMr.lkey())).rdma(peer.buf(), peer.rkey());
        qp.postSend(wr);
    }

    RdmaInfo received() {
        return RdmaInfo.received(recvBuf, receivedBytes);
    }

    /**
     * Polls until a completion of {@code want} arrives; a DISCONNECTED event from the CM while
     * waiting returns false (the peer went away), as does a flushed completion after it.
     */
    boolean await(WcOpcode want) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int idle = 0;
        while (true) {
            if (cq.poll(wc) > 0) {
                WorkCompletion c = wc[0];
                if (c.status != WcStatus.SUCCESS) {
                    if (disconnected || c.status == WcStatus.WR_FLUSH_ERR && sawDisconnect()) {
                        return false;
                    }
                    throw new VerbsException(Errno.EIO, "rping: " + c.opcode + " completion failed: "
                            + FailedCompletion.status(c.status) + FailedCompletion.meaning(c.status, "the " + peer, s -> null));
                }
                if (c.opcode == WcOpcode.SEND) {
                    sendsPending--;
                }
                if (c.opcode == want) {
                    if (want == WcOpcode.RECV) {
                        receivedBytes = c.byteLen;
                    }
                    return true;
                }
                continue; // the SEND completion before the answer's receive, and so on
            }
            if (sawDisconnect()) {
                return false;
            }
            if (System.nanoTime() > deadline) {
                String why = want == WcOpcode.RECV ? "went quiet (stopped, or not pinging?)" : "did not answer (stopped, or gone?)";
                throw new VerbsException(Errno.ETIMEDOUT, "rping: no " + want + " completion within " + timeout.toMillis()
                        + " ms: the " + peer + " " + why + "; --timeout-ms sets this wait");
            }
            if (Thread.currentThread().isInterrupted()) {
                // how a server stops its sessions when it ends (in this JVM; a process just exits)
                throw new VerbsException(Errno.ETIMEDOUT, "rping: interrupted while waiting for a " + want + " completion");
            }
            if (++idle > SPINS_BEFORE_PARK) {
                LockSupport.parkNanos(20_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private boolean sawDisconnect() {
        if (disconnected) {
            return true;
        }
        CmEvent e = events.get();
        if (e == null) {
            return false;
        }
        CmEventType t = e.type();
        e.ack();
        if (t == CmEventType.DISCONNECTED) {
            disconnected = true;
            return true;
        }
        throw new VerbsException(Errno.EPROTO, "rping: unexpected CM event " + t + " during the ping loop");
    }

    /** An address and port as {@code a.b.c.d:port} or {@code [v6]:port}, for messages. */
    static String endpoint(InetSocketAddress a) {
        return a == null ? "?" : HostName.withPort(a);
    }

    boolean disconnected() {
        return disconnected;
    }

    @Override
    public void close() {
        id.destroyQp();
        for (AutoCloseable c : new AutoCloseable[] {recvMr, sendMr, rdmaMr, startMr, cq, pd}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // teardown continues; the first failure already surfaced where it happened
                }
            }
        }
        arena.close();
    }
}
