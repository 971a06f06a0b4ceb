package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.shm.ring.MpmcRing;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * A completion queue: a ring in the node's control memory that any requester — this process's
 * or a peer's — completes into, and that {@link #poll} drains. Arming and events go through the
 * CQ's slot (see {@link PeerNode#notifyCq}), so a completion written by another process wakes
 * a thread of this one waiting on the channel.
 */
final class ShmCq implements CompletionQueue {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final WcStatus[] STATUSES = new WcStatus[32];
    private static final WcOpcode[] OPCODES = new WcOpcode[256];

    static {
        for (WcStatus s : WcStatus.values()) {
            if (s.value() >= 0 && s.value() < STATUSES.length) {
                STATUSES[s.value()] = s;
            }
        }
        for (WcOpcode o : WcOpcode.values()) {
            if (o.value() >= 0 && o.value() < OPCODES.length) {
                OPCODES[o.value()] = o;
            }
        }
    }

    final ShmContext context;
    final Node node;
    final ShmChannel channel;
    final int index;
    private final int requested;
    private final MpmcRing ring;
    private final long ringBytes;
    private final long slot;
    private long delivered;
    private int unackedEvents;
    private int users;
    private boolean closed;
    private boolean overrunReported;

    ShmCq(ShmContext context, int cqe, ShmChannel channel) {
        if (cqe < 1 || cqe > Limits.MAX_CQE) {
            throw new VerbsException(Errno.EINVAL, "create_cq: cqe " + cqe + " outside 1.." + Limits.MAX_CQE);
        }
        this.context = context;
        this.node = context.node;
        this.channel = channel;
        this.requested = cqe;
        int capacity = Integer.highestOneBit(Math.max(2, cqe) * 2 - 1);
        this.ringBytes = MpmcRing.bytesFor(capacity, Layout.CQE_BYTES);
        this.index = node.claimCq();
        long base;
        try {
            base = node.heap.allocate(ringBytes, "create_cq");
        } catch (VerbsException e) {
            node.freeCq(index);
            throw e;
        }
        this.ring = MpmcRing.format(node.ctl, base, capacity, Layout.CQE_BYTES);
        this.slot = Layout.cqSlot(index);
        MemorySegment ctl = node.ctl;
        ctl.set(ValueLayout.JAVA_LONG, slot + Layout.CQ_RING, base);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.CQ_CAPACITY, capacity);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.CQ_ARMED, 0);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.CQ_CHANNEL, channel == null ? 0 : channel.index + 1);
        ctl.set(ValueLayout.JAVA_INT, slot + Layout.CQ_OVERRUN, 0);
        LONG.setRelease(ctl, slot + Layout.CQ_EVENTS, 0L);
        node.cqs[index] = this;
        INT.setRelease(ctl, slot + Layout.CQ_LIVE, 1);
        if (channel != null) {
            channel.attach(this);
        }
    }

    @Override
    public int capacity() {
        return Math.max(requested, ring.capacity() - 1);
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    @Override
    public int poll(WorkCompletion[] wc, int max) {
        int n = Math.min(max, wc.length);
        int got = 0;
        MemorySegment m = ring.segment();
        while (got < n) {
            long p = ring.claimConsume();
            if (p < 0) {
                break;
            }
            long e = ring.entry(p);
            WorkCompletion w = wc[got++];
            w.wrId = m.get(ValueLayout.JAVA_LONG, e + Layout.CQE_WR_ID);
            int status = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_STATUS);
            int opcode = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_OPCODE);
            w.status = status >= 0 && status < STATUSES.length && STATUSES[status] != null ? STATUSES[status] : WcStatus.GENERAL_ERR;
            w.opcode = opcode >= 0 && opcode < OPCODES.length && OPCODES[opcode] != null ? OPCODES[opcode] : WcOpcode.SEND;
            w.byteLen = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_BYTE_LEN);
            w.immData = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_IMM);
            w.qpNum = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_QPN);
            w.srcQp = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_SRC_QP);
            w.wcFlags = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_FLAGS);
            w.vendorErr = m.get(ValueLayout.JAVA_INT, e + Layout.CQE_VENDOR_ERR);
            w.pkeyIndex = 0;
            w.slid = 0;
            w.sl = 0;
            w.dlidPathBits = 0;
            ring.release(p);
        }
        return got;
    }

    /** Whether a requester found this CQ full (the progress thread raises CQ_ERR once). */
    boolean overrun() {
        return (int) INT.getAcquire(node.ctl, slot + Layout.CQ_OVERRUN) != 0;
    }

    synchronized boolean reportOverrunOnce() {
        if (overrunReported || !overrun()) {
            return false;
        }
        overrunReported = true;
        return true;
    }

    @Override
    public void requestNotify(boolean solicitedOnly) {
        if (channel == null) {
            throw new VerbsException(Errno.EINVAL, "req_notify_cq: this CQ has no completion channel");
        }
        INT.setVolatile(node.ctl, slot + Layout.CQ_ARMED, solicitedOnly ? 2 : 1);
    }

    /** Takes one event the producers counted, if any is not yet delivered. */
    synchronized boolean takeEvent() {
        long produced = (long) LONG.getAcquire(node.ctl, slot + Layout.CQ_EVENTS);
        if (produced <= delivered || closed) {
            return false;
        }
        delivered = produced; // events coalesce, as a CQ fires once until armed again
        unackedEvents++;
        return true;
    }

    @Override
    public synchronized void ackEvents(int n) {
        if (n < 0 || n > unackedEvents) {
            throw new VerbsException(Errno.EINVAL, "ack_cq_events: " + n + " acknowledged but " + unackedEvents + " unacknowledged");
        }
        unackedEvents -= n;
    }

    synchronized void attachQp() {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "create_qp: the CQ was destroyed");
        }
        users++;
    }

    synchronized void detachQp() {
        users--;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (users > 0) {
                throw new VerbsException(Errno.EBUSY, "destroy_cq: " + users + " QP queue(s) still complete to this CQ");
            }
            if (unackedEvents > 0 && !contextClosing()) {
                throw new VerbsException(Errno.EBUSY, "destroy_cq: " + unackedEvents
                        + " completion event(s) not acknowledged (ack_cq_events)");
            }
            closed = true;
        }
        INT.setRelease(node.ctl, slot + Layout.CQ_LIVE, 0);
        node.cqs[index] = null;
        node.heap.release(ring.base(), ringBytes);
        node.freeCq(index);
        if (channel != null) {
            channel.detach(this);
        }
        context.forget(this);
    }

    private boolean contextClosing() {
        return context.isClosing();
    }
}
