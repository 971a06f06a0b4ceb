package org.jrdma.tools.rping;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.CmId;
import org.jrdma.cm.EventChannel;
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
 * bytes, and (client) the start buffer the server READs.
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
    private final EventChannel events;
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

    RpingConnection(CmId id, EventChannel events, int size, boolean withStartBuf, Duration timeout) {
        this.id = id;
        this.events = events;
        this.size = size;
        this.timeout = timeout;
        this.pd = id.verbs().allocPd();
        this.cq = id.verbs().createCq(16, null);
        this.qp = id.createQp(pd, new QpInitAttr().qpType(QpType.RC).cq(cq).cap(new QpCap(16, 2, 1, 1, 0)));
        this.recvBuf = arena.allocate(RdmaInfo.BYTES, 8);
        this.sendBuf = arena.allocate(RdmaInfo.BYTES, 8);
        this.rdmaBuf = arena.allocate(size, 64);
        this.recvMr = pd.registerMemory(recvBuf, AccessFlags.LOCAL_WRITE);
        this.sendMr = pd.registerMemory(sendBuf, 0);
        this.rdmaMr = pd.registerMemory(rdmaBuf, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE);
        this.startBuf = withStartBuf ? arena.allocate(size, 64) : null;
        this.startMr = withStartBuf ? pd.registerMemory(startBuf, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE) : null;
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
                    throw new VerbsException(Errno.EIO, "rping: " + c.opcode + " completion failed: " + c.status.str());
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
                throw new VerbsException(Errno.ETIMEDOUT, "rping: no " + want + " completion within " + timeout);
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
        CmEvent e = events.poll();
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

    boolean disconnected() {
        return disconnected;
    }

    void markDisconnected() {
        disconnected = true;
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
