package org.jrdma.soft.memory;

import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MwBind;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.VerbsException;

/**
 * The memory side of a memory window: remote access to part of a region under its own rkey.
 * Binding changes the rkey's low 8 bits (ibv_inc_rkey) so the previous key stops working; a
 * type-2 window is tied to the QP that bound it and is revoked by LOCAL_INV or a peer's
 * SEND_WITH_INV (RELIABILITY-SECURITY §1.7, M4). The engine reads its binding; bind and
 * invalidate run on the engine too (as send-queue work) or under this object's monitor. The
 * verbs object (SoftMw) wraps one of these.
 */
public final class Window {
    private final PdId pd;
    private final MwType type;
    private final MemoryTable memory;
    private volatile int rkey;
    private volatile boolean bound;
    private volatile Region mr;
    private volatile long addr;
    private volatile long length;
    private volatile int access;
    /** Type 2: the QP (its transport object, compared by identity) the window is bound to. */
    private volatile Object boundQp;
    private volatile boolean closed;

    /** A fresh, unbound window of {@code pd}, published in {@code memory} under a random rkey. */
    public Window(PdId pd, MwType type, MemoryTable memory) {
        this.pd = pd;
        this.type = type;
        this.memory = memory;
        this.rkey = memory.addWindow(this);
    }

    /** A verbs object that wraps a window (how a window is found from a work request). */
    public interface Handle {
        Window window();
    }

    public MwType type() {
        return type;
    }

    public int rkey() {
        return rkey;
    }

    public PdId pd() {
        return pd;
    }

    /** Checks a bind before it is queued: type, region, PD, range and access (EINVAL, naming what is wrong). */
    public void checkBind(MwBind bind, MwType expected, PdId qpPd) {
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
        if (!(bind.mr() instanceof Region.Handle h) || h.region().pd() != pd) {
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
        Region m = ((Region.Handle) bind.mr()).region();
        boolean writable = (bind.accessFlags() & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) == 0
                || (m.access() & AccessFlags.LOCAL_WRITE) != 0;
        if (!m.isValid() || (m.access() & AccessFlags.MW_BIND) == 0 || !m.contains(bind.addr(), bind.length()) || !writable) {
            return false;
        }
        memory.rekeyWindow(this, rkey, newRkey);
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
    public synchronized boolean invalidate(PdId qpPd) {
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
    public boolean allows(PdId qpPd, Object qp, long va, long len, int need) {
        Region m = mr;
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

    /** The region the window is bound to, or null. */
    public Region region() {
        return mr;
    }

    /** Deallocation: unbinds and retires the rkey; false when it was closed already. */
    public boolean close() {
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
            unbind();
        }
        memory.removeWindow(this, rkey);
        return true;
    }
}
