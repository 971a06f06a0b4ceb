package org.jrdma.soft.stage;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.SoftMr;
import org.jrdma.soft.mem.MemoryTable;

/**
 * The responder's check of a remote address (rxe CHK_RKEY), done before a byte is touched:
 * the rkey names a live region of the QP's own PD that grants the access and holds the whole
 * range — with the range check written so that va + length cannot wrap past 2^64 (SEC-40).
 * Every failure looks the same to the requester (NAK remote access error), so an attacker
 * cannot tell an unknown rkey from a range or permission miss (SEC-51).
 */
final class RemoteAccess {
    SoftMr mr;
    MemorySegment target;
    long offset;

    /** Resolves the access into {@link #target}/{@link #offset}; false when it is not allowed. */
    boolean check(MemoryTable memory, Object pd, int rkey, long va, long length, int access) {
        SoftMr m = memory.byRkey(rkey);
        if (m == null || m.softPd() != pd || !m.isValid() || (m.access() & access) != access || !m.contains(va, length)) {
            mr = null;
            target = null;
            return false;
        }
        mr = m;
        target = m.segment();
        offset = va - m.addr();
        return true;
    }
}
