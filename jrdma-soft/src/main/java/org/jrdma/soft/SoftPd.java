package org.jrdma.soft;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.soft.memory.PdId;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.VerbsException;

/** A protection domain: MRs and QPs meet only inside the same one. */
public final class SoftPd implements ProtectionDomain {
    private final SoftContext context;
    /** What the memory and transport code compares: this PD's identity, nothing else. */
    private final PdId id = new PdId();
    private final Set<Object> members = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private volatile boolean closed;

    SoftPd(SoftContext context) {
        this.context = context;
    }

    @Override
    public Context context() {
        return context;
    }

    /** The identity regions, windows and QPs of this PD carry. */
    public PdId id() {
        return id;
    }

    SoftHca hca() {
        return context.hca();
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment segment, int access) {
        checkOpen("reg_mr");
        if (hca().memory().size() >= SoftLimits.MAX_MR) {
            throw new VerbsException(Errno.ENOMEM, "reg_mr: the device has " + SoftLimits.MAX_MR + " MRs already");
        }
        SoftMr mr = new SoftMr(this, segment, access);
        members.add(mr);
        return mr;
    }

    @Override
    public QueuePair createQp(QpInitAttr initAttr) {
        checkOpen("create_qp");
        SoftQp qp = hca().createQp(initAttr.qpType(), qpn -> new SoftQp(this, hca(), qpn, initAttr));
        members.add(qp);
        return qp;
    }

    @Override
    public org.jrdma.verbs.AddressHandle createAh(org.jrdma.verbs.AhAttr attr) {
        checkOpen("create_ah");
        SoftAh ah = new SoftAh(this, attr);
        members.add(ah);
        return ah;
    }

    @Override
    public org.jrdma.verbs.SharedReceiveQueue createSrq(org.jrdma.verbs.SrqInitAttr attr) {
        checkOpen("create_srq");
        SoftSrq srq = new SoftSrq(this, context, attr);
        members.add(srq);
        return srq;
    }

    @Override
    public org.jrdma.verbs.MemoryWindow allocMw(org.jrdma.verbs.MwType type) {
        checkOpen("alloc_mw");
        SoftMw mw = new SoftMw(this, type);
        members.add(mw);
        return mw;
    }

    SoftContext softContext() {
        return context;
    }

    void forget(Object member) {
        members.remove(member);
    }

    /** Destroys the QPs, then the MRs, still in this PD (context close). */
    void destroyMembers() {
        Object[] left;
        synchronized (members) {
            left = members.toArray();
        }
        for (Object o : left) {
            if (o instanceof SoftQp qp) {
                qp.close();
            }
        }
        for (Object o : left) {
            if (o instanceof SoftMw mw) {
                mw.close();
            }
        }
        for (Object o : left) {
            if (o instanceof SoftMr mr) {
                mr.close();
            } else if (o instanceof SoftAh ah) {
                ah.close();
            } else if (o instanceof SoftSrq srq) {
                srq.close();
            } else if (o instanceof SoftMw mw) {
                mw.close();
            }
        }
    }

    private void checkOpen(String op) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, op + ": the protection domain was deallocated");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (!members.isEmpty()) {
            throw new VerbsException(Errno.EBUSY, "dealloc_pd: " + members.size() + " MR(s)/QP(s) still use it");
        }
        closed = true;
        context.forget(this);
    }
}
