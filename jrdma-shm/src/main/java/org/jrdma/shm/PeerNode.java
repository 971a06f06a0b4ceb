package org.jrdma.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.Map;
import org.jrdma.shm.ring.MpmcRing;
import org.jrdma.shm.sys.Futex;
import org.jrdma.shm.sys.Memfd;
import org.jrdma.shm.sys.Proc;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.VerbsException;

/**
 * A node as a requester sees it: its control memory (this process's own, or another
 * process's mapped through {@code /proc/<pid>/fd/<fd>}), the rings in it, and its registered
 * memory. Everything a peer's memory says is checked before it is used (offsets inside the
 * mapping, ring shapes): a broken or hostile peer can fail our requests, not crash us.
 */
final class PeerNode {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final QpState[] STATES = QpState.values();

    final Node local;
    final boolean isSelf;
    final MemorySegment ctl;
    final long pid;
    final int cookie;
    final long startMillis;
    private final Arena arena;
    private final MemorySegment attention;
    private final MemorySegment[] channelWords = new MemorySegment[Layout.CHANNEL_SLOTS];
    private final MpmcRing[] cqRings = new MpmcRing[Layout.CQ_SLOTS];
    private final MpmcRing[] rqRings = new MpmcRing[Layout.QP_SLOTS];
    private final MpmcRing[] srqRings = new MpmcRing[Layout.SRQ_SLOTS];
    // A peer's memfd allocations, mapped on first access and kept while this view lives.
    private final Mapped[] mrMemory = new Mapped[Layout.MR_SLOTS];
    private final Map<Long, MemorySegment> allocations = new HashMap<>();
    private volatile boolean cmaWarned;
    /** A pidfd of the peer's process (readable once it exited), or negative: then pid and start time are checked. */
    private final int pidfd;

    /** The view of this process's own node. */
    PeerNode(Node self) {
        this.local = self;
        this.isSelf = true;
        this.ctl = self.ctl;
        this.pid = self.pid;
        this.cookie = self.cookie;
        this.startMillis = self.startMillis;
        this.arena = null;
        this.attention = ctl.asSlice(Layout.H_ATTENTION, 4);
        this.pidfd = -1;
    }

    private PeerNode(Node local, MemorySegment ctl, long pid, int cookie, long startMillis, Arena arena) {
        this.local = local;
        this.isSelf = false;
        this.ctl = ctl;
        this.pid = pid;
        this.cookie = cookie;
        this.startMillis = startMillis;
        this.arena = arena;
        this.attention = ctl.asSlice(Layout.H_ATTENTION, 4);
        int fd = Proc.pidfdOpen(pid);
        // the pidfd names the process meant only if that process is still the one with the pid
        if (fd >= 0 && !Proc.alive(pid, startMillis)) {
            Proc.close(fd);
            fd = -1;
        }
        this.pidfd = fd;
    }

    /** Maps the control memory of the node a GID names and checks its header. */
    static PeerNode open(Node local, Gid gid) {
        int pid = Node.getInt(gid, 4);
        int fd = Node.getInt(gid, 8);
        int cookie = Node.getInt(gid, 12);
        Arena arena = Arena.ofShared();
        try {
            MemorySegment ctl = Memfd.openPeer(pid, fd, Node.controlName(cookie), Layout.CONTROL_BYTES, arena).segment();
            VarHandle.acquireFence();
            if (ctl.get(ValueLayout.JAVA_LONG, Layout.H_MAGIC) != Layout.MAGIC
                    || ctl.get(ValueLayout.JAVA_INT, Layout.H_VERSION) != Layout.VERSION
                    || ctl.get(ValueLayout.JAVA_INT, Layout.H_PID) != pid
                    || ctl.get(ValueLayout.JAVA_INT, Layout.H_COOKIE) != cookie) {
                throw new VerbsException(Errno.EINVAL, "shm: the node " + gid + " (pid " + pid
                        + ") has another header: a different jrdma version, or a stale GID");
            }
            return new PeerNode(local, ctl, pid, cookie, ctl.get(ValueLayout.JAVA_LONG, Layout.H_START), arena);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Whether the node said it closed (cheap: one load). */
    boolean closedFlag() {
        return (int) INT.getVolatile(ctl, Layout.H_CLOSED) != 0;
    }

    /**
     * Whether the node closed or its process is gone (asks the kernel: not for the data path).
     * With a pidfd it is one poll(2) and allocates nothing; without (Linux before 5.3), the
     * pid and start time through ProcessHandle.
     */
    boolean isGone() {
        if (closedFlag()) {
            return true;
        }
        if (isSelf) {
            return false;
        }
        return pidfd >= 0 ? Proc.exited(pidfd) : !Proc.alive(pid, startMillis);
    }

    void close() {
        Proc.close(pidfd);
        if (arena != null) {
            arena.close();
        }
    }

    void poke() {
        INT.getAndAdd(ctl, Layout.H_ATTENTION, 1);
        Futex.wake(attention, Integer.MAX_VALUE);
    }

    MemorySegment attentionWord() {
        return attention;
    }

    // ---- QPs ----

    static int qpIndex(int qpn) {
        return qpn & (Layout.QP_SLOTS - 1);
    }

    /** The state of the QP numbered {@code qpn}, or null when no such QP exists (any more). */
    QpState qpState(int qpn) {
        long s = Layout.qpSlot(qpIndex(qpn));
        if ((int) INT.getAcquire(ctl, s + Layout.QP_QPN) != qpn) {
            return null;
        }
        int state = (int) INT.getAcquire(ctl, s + Layout.QP_STATE);
        return state >= 0 && state < STATES.length ? STATES[state] : null;
    }

    int qpInt(int qpn, long field) {
        return ctl.get(ValueLayout.JAVA_INT, Layout.qpSlot(qpIndex(qpn)) + field);
    }

    /**
     * Moves a peer's QP to ERR because a request broke it, recording why (an AsyncEventType
     * value), and wakes its owner to flush it and raise the event.
     */
    void breakQp(int qpn, int asyncCause) {
        long s = Layout.qpSlot(qpIndex(qpn));
        if ((int) INT.getAcquire(ctl, s + Layout.QP_QPN) != qpn) {
            return;
        }
        INT.compareAndSet(ctl, s + Layout.QP_ERROR_CAUSE, 0, asyncCause + 1);
        INT.setRelease(ctl, s + Layout.QP_STATE, QpState.ERR.ordinal());
        poke();
    }

    /** Adds to a peer QP's rcvd_packets (its one requester writes it: a plain add, released). */
    void countReceived(int qpn, long packets) {
        long at = Layout.qpSlot(qpIndex(qpn)) + Layout.QP_RCVD_PACKETS;
        LONG.setRelease(ctl, at, ctl.get(ValueLayout.JAVA_LONG, at) + packets);
    }

    /** The receive queue of a peer's QP (null when it has none or the slot does not check out). */
    MpmcRing recvRing(int qpn) {
        int i = qpIndex(qpn);
        long s = Layout.qpSlot(i);
        long base = ctl.get(ValueLayout.JAVA_LONG, s + Layout.QP_RQ_BASE);
        int capacity = ctl.get(ValueLayout.JAVA_INT, s + Layout.QP_RQ_CAPACITY);
        int sge = ctl.get(ValueLayout.JAVA_INT, s + Layout.QP_RQ_SGE);
        MpmcRing r = rqRings[i];
        if (r != null && r.base() == base && r.capacity() == capacity) {
            return r;
        }
        r = attach(base, capacity, Layout.recvEntryBytes(sge));
        rqRings[i] = r;
        return r;
    }

    MpmcRing srqRing(int srqIndex) {
        if (srqIndex < 0 || srqIndex >= Layout.SRQ_SLOTS) {
            return null;
        }
        long s = Layout.srqSlot(srqIndex);
        if (ctl.get(ValueLayout.JAVA_INT, s + Layout.SRQ_LIVE) == 0) {
            return null;
        }
        long base = ctl.get(ValueLayout.JAVA_LONG, s + Layout.SRQ_RING);
        int capacity = ctl.get(ValueLayout.JAVA_INT, s + Layout.SRQ_CAPACITY);
        int sge = ctl.get(ValueLayout.JAVA_INT, s + Layout.SRQ_SGE);
        MpmcRing r = srqRings[srqIndex];
        if (r != null && r.base() == base && r.capacity() == capacity) {
            return r;
        }
        r = attach(base, capacity, Layout.recvEntryBytes(sge));
        srqRings[srqIndex] = r;
        return r;
    }

    /** After a receive was taken from an SRQ: below its armed limit, the limit fires once (SRQ_LIMIT_REACHED). */
    void srqConsumed(int srqIndex) {
        long s = Layout.srqSlot(srqIndex);
        int limit = (int) INT.getAcquire(ctl, s + Layout.SRQ_LIMIT);
        if (limit <= 0) {
            return;
        }
        MpmcRing r = srqRing(srqIndex);
        if (r != null && r.size() < limit && INT.compareAndSet(ctl, s + Layout.SRQ_LIMIT, limit, 0)) {
            INT.setRelease(ctl, s + Layout.SRQ_LIMIT_FIRED, 1);
            poke();
        }
    }

    MpmcRing cqRing(int cqIndex) {
        if (cqIndex < 0 || cqIndex >= Layout.CQ_SLOTS) {
            return null;
        }
        long s = Layout.cqSlot(cqIndex);
        if ((int) INT.getAcquire(ctl, s + Layout.CQ_LIVE) == 0) {
            return null;
        }
        long base = ctl.get(ValueLayout.JAVA_LONG, s + Layout.CQ_RING);
        int capacity = ctl.get(ValueLayout.JAVA_INT, s + Layout.CQ_CAPACITY);
        MpmcRing r = cqRings[cqIndex];
        if (r != null && r.base() == base && r.capacity() == capacity) {
            return r;
        }
        r = attach(base, capacity, Layout.CQE_BYTES);
        cqRings[cqIndex] = r;
        return r;
    }

    private MpmcRing attach(long base, int capacity, int entryBytes) {
        if (base < Layout.HEAP || capacity <= 0 || Integer.bitCount(capacity) != 1 || capacity > (1 << 20)) {
            return null;
        }
        try {
            return MpmcRing.attach(ctl, base, capacity, entryBytes);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return null; // a slot that changed under us, or a peer's broken table
        }
    }

    /**
     * Adds a completion to one of this node's CQs and, when the CQ is armed for it, delivers the
     * event to its channel. Returns false when the CQ is gone or full (a CQ overrun: RC moves the
     * QP that completed into it to ERR).
     */
    boolean complete(int cqIndex, long wrId, int status, int opcode, int byteLen, int imm, int qpn, int srcQp,
            int flags, boolean solicited) {
        MpmcRing ring = cqRing(cqIndex);
        if (ring == null) {
            return false;
        }
        long p = ring.claimProduce();
        if (p < 0) {
            INT.setRelease(ctl, Layout.cqSlot(cqIndex) + Layout.CQ_OVERRUN, 1);
            poke();
            return false;
        }
        MemorySegment m = ring.segment();
        long e = ring.entry(p);
        m.set(ValueLayout.JAVA_LONG, e + Layout.CQE_WR_ID, wrId);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_STATUS, status);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_OPCODE, opcode);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_BYTE_LEN, byteLen);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_IMM, imm);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_QPN, qpn);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_SRC_QP, srcQp);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_FLAGS, flags);
        m.set(ValueLayout.JAVA_INT, e + Layout.CQE_VENDOR_ERR, 0);
        ring.publish(p);
        notifyCq(cqIndex, solicited || status != 0); // an error completion fires a solicited-only arm too (IBA 11.4.2.2)
        return true;
    }

    /** ibv_req_notify_cq's other half: an armed CQ fires once, then must be armed again. */
    void notifyCq(int cqIndex, boolean solicited) {
        long s = Layout.cqSlot(cqIndex);
        int channel = ctl.get(ValueLayout.JAVA_INT, s + Layout.CQ_CHANNEL) - 1; // fixed when the CQ was made
        if (channel < 0) {
            return; // a CQ with no channel is never armed: no fence on the polling path
        }
        VarHandle.fullFence(); // the entry is published before the arm state is read (the owner arms, then polls)
        int armed = (int) INT.getVolatile(ctl, s + Layout.CQ_ARMED);
        if (armed == 0 || (armed == 2 && !solicited)) {
            return;
        }
        if (!INT.compareAndSet(ctl, s + Layout.CQ_ARMED, armed, 0)) {
            return;
        }
        LONG.getAndAdd(ctl, s + Layout.CQ_EVENTS, 1L);
        if (channel < Layout.CHANNEL_SLOTS) {
            MemorySegment word = channelWords[channel];
            if (word == null) {
                word = ctl.asSlice(Layout.channelSlot(channel) + Layout.CH_WORD, 4);
                channelWords[channel] = word;
            }
            INT.getAndAdd(ctl, Layout.channelSlot(channel) + Layout.CH_WORD, 1);
            Futex.wake(word, Integer.MAX_VALUE);
        }
    }

    // ---- registered memory ----

    /**
     * Says once per peer why a request to its ordinary (non-provider) memory failed: the kernel
     * refused cross-memory attach, and what to do about it.
     */
    void cmaRefused(int errno) {
        if (errno == 0 || cmaWarned) {
            return;
        }
        cmaWarned = true;
        System.getLogger(PeerNode.class.getName()).log(System.Logger.Level.WARNING,
                "shm: process {0} registered memory that is not the provider''s, and this process may not reach it by"
                        + " cross-memory attach (process_vm_writev: errno {1}{2}); its requests fail with REM_ACCESS_ERR."
                        + " Register memory from Context.allocateMemory on both sides (a memfd the peer maps), or allow"
                        + " ptrace between the two (same user; /proc/sys/kernel/yama/ptrace_scope 0, or CAP_SYS_PTRACE)",
                pid, errno, errno == 1 ? " EPERM" : errno == 3 ? " ESRCH" : errno == 14 ? " EFAULT" : "");
    }

    /** Outcomes of {@link #resolve}. */
    static final int OK = 0;
    static final int BAD_KEY = 1;
    static final int BAD_PD = 2;
    static final int BAD_ACCESS = 3;
    static final int BAD_RANGE = 4;
    static final int UNREACHABLE = 5;

    static int mrIndex(int key) {
        return (key >>> 8) & (Layout.MR_SLOTS - 1);
    }

    /**
     * Finds the memory behind {@code key} for {@code length} bytes at {@code address} with
     * {@code access}, in protection domain {@code pd}, and points {@code out} at it.
     */
    int resolve(int key, long address, long length, int access, int pd, Target out) {
        int i = mrIndex(key);
        long s = Layout.mrSlot(i);
        int kind;
        int fd;
        long id;
        long fdOffset;
        long base;
        long size;
        long fdSize;
        int spins = 0;
        while (true) {
            int seq = (int) INT.getAcquire(ctl, s + Layout.MR_SEQ);
            if ((seq & 1) != 0) {
                if (++spins > 1000) {
                    return BAD_KEY;
                }
                Thread.onSpinWait();
                continue;
            }
            int k = ctl.get(ValueLayout.JAVA_INT, s + Layout.MR_KEY);
            int p = ctl.get(ValueLayout.JAVA_INT, s + Layout.MR_PD);
            int acc = ctl.get(ValueLayout.JAVA_INT, s + Layout.MR_ACCESS);
            kind = ctl.get(ValueLayout.JAVA_INT, s + Layout.MR_KIND);
            fd = ctl.get(ValueLayout.JAVA_INT, s + Layout.MR_FD);
            id = ctl.get(ValueLayout.JAVA_LONG, s + Layout.MR_ALLOC);
            fdOffset = ctl.get(ValueLayout.JAVA_LONG, s + Layout.MR_FD_OFFSET);
            base = ctl.get(ValueLayout.JAVA_LONG, s + Layout.MR_ADDR);
            size = ctl.get(ValueLayout.JAVA_LONG, s + Layout.MR_LENGTH);
            fdSize = ctl.get(ValueLayout.JAVA_LONG, s + Layout.MR_FD_SIZE);
            VarHandle.acquireFence();
            if ((int) INT.getAcquire(ctl, s + Layout.MR_SEQ) != seq) {
                continue;
            }
            if (k != key || kind == 0) {
                return BAD_KEY;
            }
            if (p != pd) {
                return BAD_PD;
            }
            if ((acc & access) != access) {
                return BAD_ACCESS;
            }
            break;
        }
        long offset = address - base;
        if (length < 0 || offset < 0 || offset > size || length > size - offset) {
            return BAD_RANGE;
        }
        if (isSelf) {
            ShmMr mr = local.mrs[i];
            if (mr == null || mr.key != key) {
                return BAD_KEY;
            }
            out.local(mr.segment, offset);
            return OK;
        }
        if (kind == Layout.KIND_MEMFD) {
            MemorySegment m = mapping(i, id, fd, fdSize);
            if (m == null || fdOffset < 0 || fdOffset + size > m.byteSize()) {
                return UNREACHABLE;
            }
            out.local(m, fdOffset + offset);
            return OK;
        }
        out.remote(pid, address);
        return OK;
    }

    /** One of a peer's allocations as this process maps it. */
    private record Mapped(long id, MemorySegment memory) {
    }

    private MemorySegment mapping(int i, long id, int fd, long fdSize) {
        Mapped cached = mrMemory[i];
        if (cached != null && cached.id() == id) {
            return cached.memory();
        }
        synchronized (allocations) {
            MemorySegment m = allocations.get(id);
            if (m == null) {
                try {
                    m = Memfd.openPeer(pid, fd, Node.memoryName(cookie, id), fdSize, arena).segment();
                } catch (RuntimeException e) {
                    return null;
                }
                allocations.put(id, m);
            }
            mrMemory[i] = new Mapped(id, m);
            return m;
        }
    }
}
