package org.jrdma.soft;

import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.MwBind;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.VerbsException;

/**
 * A memory window: remote access to part of a region under its own rkey. Binding changes the
 * rkey's low 8 bits (ibv_inc_rkey) so the previous key stops working; a type-2 window is tied
 * to the QP that bound it and is revoked by LOCAL_INV or a peer's SEND_WITH_INV
 * (RELIABILITY-SECURITY §1.7, M4). The engine reads its binding; bind and invalidate run on
 * the engine too (as send-queue work) or under this object's monitor.
 */
public final class SoftMw implements MemoryWindow {
    private final SoftPd pd;
    private final MwType type;
    private volatile int rkey;
    private volatile boolean bound;
    private volatile SoftMr mr;
    private volatile long addr;
    private volatile long length;
    private volatile int access;
    /** Type 2: the QP (its transport object) the window is bound to. */
    private volatile Object boundQp;
    private volatile boolean closed;

    SoftMw(SoftPd pd, MwType type) {
        this.pd = pd;
        this.type = type;
        this.rkey = pd.hca().memory().addWindow(this);
    }

    @Override
    public MwType type() {
        return type;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    SoftPd pd() {
        return pd;
    }

    /** The rkey the next bind will give (the low 8 bits incremented), as ibv_inc_rkey computes it. */
    static int nextKey(int rkey) {
        return (rkey & 0xFFFFFF00) | ((rkey + 1) & 0xFF);
    }

    /** Checks a bind before it is queued: type, region, PD, range and access (EINVAL, naming what is wrong). */
    public void checkBind(MwBind bind, MwType expected, Object qpPd) {
        if (type != expected) {
            throw new VerbsException(Errno.EINVAL, "bind_mw: a " + type + " window is bound with "
                    + (type == MwType.TYPE_1 ? "QueuePair.bindMw" : "a BIND_MW work request"));
        }
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "bind_mw: the window was deallocated");
        }
        if (pd != qpPd) {
            throw new VerbsException(Errno.EINVAL, "bind_mw: the window and the QP are in different PDs");
        }
        if (bind.length() == 0) {
            return; // a zero length unbinds
        }
        if (!(bind.mr() instanceof SoftMr m) || m.softPd() != pd) {
            throw new VerbsException(Errno.EINVAL, "bind_mw: the region belongs to another PD or provider");
        }
        int remote = AccessFlags.REMOTE_READ | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;
        if ((bind.accessFlags() & ~remote) != 0) {
            throw new VerbsException(Errno.EINVAL, "bind_mw: window access may only be REMOTE_READ/WRITE/ATOMIC");
        }
    }

    /**
     * Binds (or with length 0 unbinds) at execution time; returns false — an MW_BIND_ERR —
     * when the region no longer allows it (deregistered, no MW_BIND access, range outside, or
     * write/atomic access without LOCAL_WRITE on the region, IBA 10.6.7.2).
     */
    public synchronized boolean bind(MwBind bind, int newRkey, Object qp) {
        if (closed || (type == MwType.TYPE_2 && bound && bind.length() != 0)) {
            return false; // a type-2 window must be invalidated before it is bound again
        }
        if (bind.length() == 0) {
            unbind();
            return true;
        }
        SoftMr m = (SoftMr) bind.mr();
        boolean writable = (bind.accessFlags() & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) == 0
                || (m.access() & AccessFlags.LOCAL_WRITE) != 0;
        if (!m.isValid() || (m.access() & AccessFlags.MW_BIND) == 0 || !m.contains(bind.addr(), bind.length()) || !writable) {
            return false;
        }
        pd.hca().memory().rekeyWindow(this, rkey, newRkey);
        this.rkey = newRkey;
        this.mr = m;
        this.addr = bind.addr();
        this.length = bind.length();
        this.access = bind.accessFlags();
        this.boundQp = type == MwType.TYPE_2 ? qp : null;
        this.bound = true;
        return true;
    }

    /** LOCAL_INV / SEND_WITH_INV: only a bound type-2 window of this PD can be invalidated. */
    public synchronized boolean invalidate(Object qpPd) {
        if (type != MwType.TYPE_2 || !bound || pd != qpPd) {
            return false;
        }
        unbind();
        return true;
    }

    private void unbind() {
        bound = false;
        mr = null;
        boundQp = null;
    }

    /** Does this window let {@code qp} (of {@code qpPd}) access [va, va+len) with {@code need}? */
    public boolean allows(Object qpPd, Object qp, long va, long len, int need) {
        SoftMr m = mr;
        if (closed || !bound || m == null || pd != qpPd || (access & need) != need || !m.isValid()) {
            return false;
        }
        if (type == MwType.TYPE_2 && boundQp != qp) {
            return false;
        }
        long offset = va - addr;
        return len >= 0 && Long.compareUnsigned(va, addr) >= 0 && Long.compareUnsigned(offset, length) <= 0
                && Long.compareUnsigned(len, length - offset) <= 0;
    }

    public SoftMr region() {
        return mr;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            unbind();
        }
        pd.hca().memory().removeWindow(this, rkey);
        pd.forget(this);
    }
}
