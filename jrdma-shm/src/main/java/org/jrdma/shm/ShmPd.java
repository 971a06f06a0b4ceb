package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.SrqInitAttr;
import org.jrdma.verbs.VerbsException;

/** A protection domain: its id is written into every MR, QP and SRQ slot it owns, and checked on every access. */
final class ShmPd implements ProtectionDomain {
    private static final AtomicInteger NEXT_ID = new AtomicInteger(1);
    final ShmContext context;
    final int id = NEXT_ID.getAndIncrement();
    private final List<AutoCloseable> members = new ArrayList<>();
    private boolean closed;

    ShmPd(ShmContext context) {
        this.context = context;
    }

    Node node() {
        return context.node;
    }

    void checkOpen(String op) {
        context.checkOpen(op);
        synchronized (members) {
            if (closed) {
                throw new VerbsException(Errno.EINVAL, op + ": the protection domain was deallocated");
            }
        }
    }

    <T extends AutoCloseable> T remember(T member) {
        synchronized (members) {
            members.add(member);
        }
        return member;
    }

    void forget(AutoCloseable member) {
        synchronized (members) {
            members.remove(member);
        }
    }

    @Override
    public Context context() {
        return context;
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment segment, int access) {
        checkOpen("reg_mr");
        return remember(new ShmMr(this, segment, access));
    }

    @Override
    public QueuePair createQp(QpInitAttr initAttr) {
        checkOpen("create_qp");
        return remember(new ShmQp(this, initAttr));
    }

    @Override
    public SharedReceiveQueue createSrq(SrqInitAttr attr) {
        checkOpen("create_srq");
        return remember(new ShmSrq(this, attr));
    }

    /** Destroys what the application left in this PD: QPs first, then SRQs, then MRs. */
    void destroyMembers() {
        List<AutoCloseable> left;
        synchronized (members) {
            left = new ArrayList<>(members);
        }
        left.sort((a, b) -> Integer.compare(rank(a), rank(b)));
        for (AutoCloseable m : left) {
            try {
                m.close();
            } catch (Exception | Error e) {
                // go on with the rest
            }
        }
    }

    private static int rank(Object o) {
        return o instanceof ShmQp ? 0 : o instanceof ShmSrq ? 1 : 2;
    }

    @Override
    public void close() {
        synchronized (members) {
            if (closed) {
                return;
            }
            if (!members.isEmpty()) {
                throw new VerbsException(Errno.EBUSY, "dealloc_pd: " + members.size() + " MR(s)/QP(s)/SRQ(s) still use it");
            }
            closed = true;
        }
        context.forget(this);
    }
}
