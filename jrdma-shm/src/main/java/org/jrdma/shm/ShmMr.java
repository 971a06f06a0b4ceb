package org.jrdma.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.RegistrationChecks;

/**
 * A registered region: a slot in the node's MR table that says where the memory is — a slice
 * of a provider memfd (a peer maps it) or an address (this process reaches it directly, a peer
 * by cross-memory attach). lkey and rkey are one key: slot index in bits 8–19, random bits
 * around it, so a stale or guessed key finds no region.
 */
final class ShmMr implements MemoryRegion {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    final ShmPd pd;
    final MemorySegment segment;
    final int access;
    final int key;
    final int index;
    private boolean closed;

    ShmMr(ShmPd pd, MemorySegment segment, int access) {
        RegistrationChecks.check(segment, access, AccessFlags.ON_DEMAND | AccessFlags.HUGETLB | AccessFlags.ZERO_BASED, "shm");
        if (segment.byteSize() > Limits.MAX_MR_SIZE) {
            throw new VerbsException(Errno.EINVAL, "reg_mr: " + segment.byteSize() + " bytes exceed max_mr_size " + Limits.MAX_MR_SIZE);
        }
        this.pd = pd;
        this.segment = segment;
        this.access = access;
        Node node = pd.node();
        this.index = node.claimMr();
        int k;
        do {
            k = (Node.random() & 0xFFF000FF) | (index << 8);
        } while (k == 0);
        this.key = k;
        Node.Allocation alloc = node.allocationOf(segment.address(), segment.byteSize());
        MemorySegment ctl = node.ctl;
        long s = Layout.mrSlot(index);
        int seq = ctl.get(ValueLayout.JAVA_INT, s + Layout.MR_SEQ);
        INT.setRelease(ctl, s + Layout.MR_SEQ, seq | 1);
        VarHandle.storeStoreFence();
        ctl.set(ValueLayout.JAVA_INT, s + Layout.MR_KEY, key);
        ctl.set(ValueLayout.JAVA_INT, s + Layout.MR_PD, pd.id);
        ctl.set(ValueLayout.JAVA_INT, s + Layout.MR_ACCESS, access);
        ctl.set(ValueLayout.JAVA_INT, s + Layout.MR_KIND, alloc != null ? Layout.KIND_MEMFD : Layout.KIND_ADDRESS);
        ctl.set(ValueLayout.JAVA_INT, s + Layout.MR_FD, alloc != null ? alloc.fd() : -1);
        ctl.set(ValueLayout.JAVA_LONG, s + Layout.MR_ALLOC, alloc != null ? alloc.id() : 0);
        ctl.set(ValueLayout.JAVA_LONG, s + Layout.MR_FD_OFFSET, alloc != null ? segment.address() - alloc.address() : 0);
        ctl.set(ValueLayout.JAVA_LONG, s + Layout.MR_ADDR, segment.address());
        ctl.set(ValueLayout.JAVA_LONG, s + Layout.MR_LENGTH, segment.byteSize());
        ctl.set(ValueLayout.JAVA_LONG, s + Layout.MR_FD_SIZE, alloc != null ? alloc.size() : 0);
        node.mrs[index] = this;
        INT.setRelease(ctl, s + Layout.MR_SEQ, (seq | 1) + 1);
    }

    /** Whether this region covers [address, address + length) with {@code needed} access, in {@code pdId}. */
    boolean covers(long address, long length, int needed, int pdId) {
        long offset = address - segment.address();
        return !closed && pdId == pd.id && (access & needed) == needed && offset >= 0 && length >= 0
                && offset <= segment.byteSize() && length <= segment.byteSize() - offset;
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public long addr() {
        return segment.address();
    }

    @Override
    public long length() {
        return segment.byteSize();
    }

    @Override
    public int lkey() {
        return key;
    }

    @Override
    public int rkey() {
        return key;
    }

    @Override
    public int access() {
        return access;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        Node node = pd.node();
        MemorySegment ctl = node.ctl;
        long s = Layout.mrSlot(index);
        int seq = ctl.get(ValueLayout.JAVA_INT, s + Layout.MR_SEQ);
        INT.setRelease(ctl, s + Layout.MR_SEQ, seq | 1);
        VarHandle.storeStoreFence();
        ctl.set(ValueLayout.JAVA_INT, s + Layout.MR_KEY, 0);
        ctl.set(ValueLayout.JAVA_INT, s + Layout.MR_KIND, 0);
        INT.setRelease(ctl, s + Layout.MR_SEQ, (seq | 1) + 1);
        node.mrs[index] = null;
        node.freeMr(index);
        pd.forget(this);
    }

    @Override
    public String toString() {
        return "ShmMr{length=" + length() + ", access=" + AccessFlags.toString(access) + "}";
    }
}
