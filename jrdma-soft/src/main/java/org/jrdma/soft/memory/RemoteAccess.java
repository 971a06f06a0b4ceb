package org.jrdma.soft.memory;

import java.lang.foreign.MemorySegment;

/**
 * The responder's check of a remote address (rxe CHK_RKEY), done before a byte is touched:
 * the rkey names a live region of the QP's own PD that grants the access and holds the whole
 * range — with the range check written so that va + length cannot wrap past 2^64 (SEC-40).
 * Every failure looks the same to the requester (NAK remote access error), so an attacker
 * cannot tell an unknown rkey from a range or permission miss (SEC-51).
 */
public final class RemoteAccess {
    private Region mr;
    private MemorySegment target;
    private long offset;

    /** The region the last allowed check resolved to (null after a refusal or {@link #clear}). */
    public Region region() {
        return mr;
    }

    /** The segment to touch: the region's. */
    public MemorySegment target() {
        return target;
    }

    /** Where in {@link #target} the access starts. */
    public long offset() {
        return offset;
    }

    /** Nothing resolved: a zero-length READ or WRITE touches no memory. */
    public void clear() {
        mr = null;
        target = null;
        offset = 0;
    }

    /**
     * Resolves the access into {@link #target}/{@link #offset}; false when it is not allowed.
     * The rkey names a region, or a window onto one (whose own binding, access and — for type
     * 2 — QP must allow it).
     */
    public boolean check(MemoryTable memory, PdId pd, Object qp, int rkey, long va, long length, int access) {
        Region m = memory.byRkey(rkey);
        long base;
        if (m != null) {
            if (m.pd() != pd || !m.isValid() || (m.access() & access) != access || !m.containsRemote(va, length)) {
                return refuse();
            }
            base = m.remoteBase(); // 0 for a ZERO_BASED region (SEC-06)
        } else {
            Window mw = memory.windowByRkey(rkey);
            if (mw == null || !mw.allows(pd, qp, va, length, access)) {
                return refuse();
            }
            m = mw.region();
            base = m.addr(); // windows are bound by native address
        }
        mr = m;
        target = m.segment();
        offset = va - base;
        return true;
    }

    private boolean refuse() {
        mr = null;
        target = null;
        return false;
    }
}
