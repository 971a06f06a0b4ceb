package org.jrdma.tools.perf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PeerClosedException;
import org.jrdma.bootstrap.tcp.Link;
import org.jrdma.cm.CmId;
import org.jrdma.tools.CqWaiter;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
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
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * perftest's {@code -R} exchange channel: an RC QP of its own, connected by the connection
 * manager before the test's QPs (the capture's first REQ/REP/RTU; RESP/INIT depth 0), on which
 * each message is one SEND into one posted RECV ({@code ctx_xchg_data_rdma}). One receive is
 * always posted, so the peer's next message never meets an empty queue. Waits sleep on a
 * completion channel: the exchange idles while the test measures, and must not spin a core.
 */
final class CmPipe implements PerfPipe {
    /** The largest message: a binary key message. */
    static final int MAX_MESSAGE = 64;
    private static final long RECV_WR = 1;
    private static final long SEND_WR = 2;

    final CmId id;
    private final Arena arena = Arena.ofShared();
    private final ProtectionDomain pd;
    private final CompletionChannel channel;
    private final CompletionQueue cq;
    private final CqWaiter waiter;
    private final QueuePair qp;
    private final MemorySegment recvBuf;
    private final MemorySegment sendBuf;
    private final MemoryRegion recvMr;
    private final MemoryRegion sendMr;
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private final Sge sge = new Sge();
    private WorkCompletion pendingRecv;
    private boolean closed;
    /** Whether the peer has disconnected: the connection manager's events say it (RdmaCmLink's). */
    private final java.util.function.BooleanSupplier disconnected;

    /**
     * The QP on {@code id} (resolved, or just requested), its buffers, and the first receive
     * posted; {@code disconnected} tells whether a DISCONNECTED has come.
     */
    CmPipe(CmId id, java.util.function.BooleanSupplier disconnected) {
        this.id = id;
        this.disconnected = disconnected;
        this.pd = id.verbs().allocPd();
        this.channel = id.verbs().createCompChannel();
        this.cq = id.verbs().createCq(8, channel);
        this.waiter = new CqWaiter(channel, cq, cq);
        this.qp = id.createQp(pd, new QpInitAttr().qpType(QpType.RC).cq(cq).cap(new QpCap(2, 2, 1, 1, 0)));
        this.recvBuf = arena.allocate(MAX_MESSAGE, 8);
        this.sendBuf = arena.allocate(MAX_MESSAGE, 8);
        this.recvMr = pd.registerMemory(recvBuf, AccessFlags.LOCAL_WRITE, arena);
        this.sendMr = pd.registerMemory(sendBuf, 0, arena);
        postRecv();
    }

    private void postRecv() {
        qp.postRecv(new RecvWorkRequest().wrId(RECV_WR).sg(sge.set(recvMr.addr(), MAX_MESSAGE, recvMr.lkey())));
    }

    @Override
    public void write(byte[] bytes, Duration timeout, String what) {
        if (bytes.length > MAX_MESSAGE) {
            throw new IllegalArgumentException(what + ": " + bytes.length + " bytes, at most " + MAX_MESSAGE);
        }
        MemorySegment.copy(bytes, 0, sendBuf, ValueLayout.JAVA_BYTE, 0, bytes.length);
        qp.postSend(new SendWorkRequest().wrId(SEND_WR).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                .sg(new Sge(sendMr.addr(), bytes.length, sendMr.lkey())));
        await(WcOpcode.SEND, timeout, ExchangeStep.WRITE, what);
    }

    @Override
    public void read(byte[] into, Duration timeout, String what, Link.PrefixCheck check) {
        WorkCompletion c = pendingRecv != null ? pendingRecv : await(WcOpcode.RECV, timeout, ExchangeStep.READ, what);
        pendingRecv = null;
        if (c.byteLen != into.length) {
            throw new MalformedMessageException(what, c.byteLen + " bytes, not " + into.length);
        }
        MemorySegment.copy(recvBuf, ValueLayout.JAVA_BYTE, 0, into, 0, into.length);
        postRecv();
        check.check(into, into.length);
    }

    /**
     * The next completion of {@code want}; a receive that completes while a send is awaited is
     * kept for the next read. A failed completion means the connection is gone.
     */
    private WorkCompletion await(WcOpcode want, Duration timeout, ExchangeStep step, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            while (cq.poll(wc) > 0) {
                WorkCompletion c = wc[0];
                if (c.status != WcStatus.SUCCESS) {
                    throw new PeerClosedException(what + " (" + c.opcode + " completion " + c.status.str() + ")", 0, 0);
                }
                WorkCompletion copy = new WorkCompletion();
                copy.copyFrom(c);
                if (copy.opcode == want) {
                    return copy;
                }
                if (copy.opcode == WcOpcode.RECV) {
                    pendingRecv = copy;
                }
            }
            if (System.nanoTime() >= deadline) {
                throw new ExchangeTimeoutException(step, timeout, what + " over the rdma_cm exchange QP");
            }
            waiter.idle(deadline); // arms the CQ first, then sleeps on the channel
        }
    }

    @Override
    public boolean peerClosed() {
        return disconnected.getAsBoolean();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            id.close();
        } catch (RuntimeException ignored) {
            // best effort: the exchange already has its result or its error
        }
        try {
            cq.close();
            channel.close();
            recvMr.close();
            sendMr.close();
            pd.close();
        } catch (RuntimeException ignored) {
            // as above
        } finally {
            arena.close();
        }
    }
}
