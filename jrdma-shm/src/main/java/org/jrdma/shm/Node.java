package org.jrdma.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.security.SecureRandom;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.shm.sys.Memfd;
import org.jrdma.shm.sys.Proc;
import org.jrdma.shm.sys.SharedMapping;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.VerbsException;

/**
 * This process's end of the shm device: the control memory peers map (see {@link Layout}), the
 * slot tables behind it, the Java objects those slots stand for, the memory the provider
 * allocated for registration, the views of peer nodes, and the progress thread.
 *
 * <p>One node per process, shared by every open context of {@code shm0} (as one HCA serves
 * all contexts); it lives while a context is open. Its GID names it: {@code fd6a:736d}, then
 * the pid, the control memfd's descriptor number and a random cookie, which a peer checks
 * against the header it maps (a reused pid or descriptor fails the check).
 */
final class Node implements AutoCloseable {
    static final byte[] GID_PREFIX = {(byte) 0xfd, 0x6a, 0x73, 0x6d};
    private static final SecureRandom RANDOM = new SecureRandom();
    private static Node current;
    private static int users;

    final Arena arena = Arena.ofShared();
    final SharedMapping control;
    final MemorySegment ctl;
    final int pid;
    final int cookie;
    final long startMillis;
    final Gid gid;
    final PeerNode self;
    final Heap heap = new Heap(Layout.HEAP, Layout.CONTROL_BYTES);

    final ShmMr[] mrs = new ShmMr[Layout.MR_SLOTS];
    final ShmQp[] qps = new ShmQp[Layout.QP_SLOTS];
    final ShmCq[] cqs = new ShmCq[Layout.CQ_SLOTS];
    final ShmSrq[] srqs = new ShmSrq[Layout.SRQ_SLOTS];
    final ShmChannel[] channels = new ShmChannel[Layout.CHANNEL_SLOTS];
    private final BitSet mrUsed = new BitSet();
    private final BitSet qpUsed = new BitSet();
    private final BitSet cqUsed = new BitSet();
    private final BitSet srqUsed = new BitSet();
    private final BitSet channelUsed = new BitSet();
    private final TreeMap<Long, Allocation> allocations = new TreeMap<>();
    private final Map<Gid, PeerNode> peers = new HashMap<>();
    private long nextAllocation = 1;
    final Progress progress;

    /** Memory the provider allocated: a memfd of its own, mapped at {@code address}. */
    record Allocation(long address, long size, int fd, long id) {
    }

    private Node() {
        pid = Math.toIntExact(Proc.pid());
        cookie = RANDOM.nextInt() | 1;
        startMillis = Proc.startMillis();
        control = Memfd.create(controlName(cookie), Layout.CONTROL_BYTES, arena);
        ctl = control.segment();
        ctl.set(ValueLayout.JAVA_INT, Layout.H_VERSION, Layout.VERSION);
        ctl.set(ValueLayout.JAVA_INT, Layout.H_PID, pid);
        ctl.set(ValueLayout.JAVA_LONG, Layout.H_START, startMillis);
        ctl.set(ValueLayout.JAVA_INT, Layout.H_COOKIE, cookie);
        ctl.set(ValueLayout.JAVA_LONG, Layout.H_SIZE, Layout.CONTROL_BYTES);
        VarHandle.releaseFence();
        ctl.set(ValueLayout.JAVA_LONG, Layout.H_MAGIC, Layout.MAGIC);
        byte[] raw = new byte[Gid.BYTES];
        System.arraycopy(GID_PREFIX, 0, raw, 0, 4);
        putInt(raw, 4, pid);
        putInt(raw, 8, control.fd());
        putInt(raw, 12, cookie);
        gid = Gid.of(raw);
        self = new PeerNode(this);
        progress = new Progress(this);
        progress.start();
    }

    static String controlName(int cookie) {
        return "jrdma-shm-" + Integer.toHexString(cookie) + "-ctl";
    }

    static String memoryName(int cookie, long id) {
        return "jrdma-shm-" + Integer.toHexString(cookie) + "-m" + id;
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }

    static int getInt(Gid gid, int at) {
        return (gid.byteAt(at) & 0xff) << 24 | (gid.byteAt(at + 1) & 0xff) << 16 | (gid.byteAt(at + 2) & 0xff) << 8
                | (gid.byteAt(at + 3) & 0xff);
    }

    /** Whether a GID names an shm node (its first four bytes are fd 6a 73 6d). */
    static boolean isShmGid(Gid gid) {
        for (int i = 0; i < 4; i++) {
            if (gid.byteAt(i) != GID_PREFIX[i]) {
                return false;
            }
        }
        return true;
    }

    static synchronized Node acquire() {
        if (current == null) {
            current = new Node();
        }
        users++;
        return current;
    }

    static synchronized void release(Node node) {
        if (node != current || users == 0) {
            return;
        }
        if (--users == 0) {
            current = null;
            node.close();
        }
    }

    boolean isClosed() {
        return ctl.get(ValueLayout.JAVA_INT, Layout.H_CLOSED) != 0;
    }

    /** Wakes this node's progress thread: a peer's request or a local post left it work. */
    void poke() {
        self.poke();
    }

    // ---- slots ----

    synchronized int claim(BitSet used, int limit, String what) {
        int i = used.nextClearBit(0);
        if (i >= limit) {
            throw new VerbsException(Errno.ENOMEM, what + ": all " + limit + " slots of the shm device are in use");
        }
        used.set(i);
        return i;
    }

    synchronized void free(BitSet used, int index) {
        used.clear(index);
    }

    int claimMr() {
        return claim(mrUsed, Layout.MR_SLOTS, "reg_mr");
    }

    void freeMr(int i) {
        free(mrUsed, i);
    }

    int claimQp() {
        return claim(qpUsed, Layout.QP_SLOTS, "create_qp");
    }

    void freeQp(int i) {
        free(qpUsed, i);
    }

    int claimCq() {
        return claim(cqUsed, Layout.CQ_SLOTS, "create_cq");
    }

    void freeCq(int i) {
        free(cqUsed, i);
    }

    int claimSrq() {
        return claim(srqUsed, Layout.SRQ_SLOTS, "create_srq");
    }

    void freeSrq(int i) {
        free(srqUsed, i);
    }

    int claimChannel() {
        return claim(channelUsed, Layout.CHANNEL_SLOTS, "create_comp_channel");
    }

    void freeChannel(int i) {
        free(channelUsed, i);
    }

    static int random() {
        return RANDOM.nextInt();
    }

    // ---- memory the provider allocates ----

    MemorySegment allocate(long byteSize, Arena owner) {
        if (byteSize <= 0) {
            throw new VerbsException(Errno.EINVAL, "allocate: size " + byteSize + " must be positive");
        }
        long id;
        synchronized (this) {
            id = nextAllocation++;
        }
        long rounded = (byteSize + 4095) & ~4095L;
        SharedMapping m = Memfd.create(memoryName(cookie, id), rounded, owner);
        Allocation a = new Allocation(m.segment().address(), rounded, m.fd(), id);
        synchronized (this) {
            allocations.put(a.address(), a);
        }
        // Forget it before the arena unmaps it (cleanups run in reverse order of registration).
        MemorySegment.NULL.reinterpret(owner, unused -> forget(a));
        return m.segment().asSlice(0, byteSize);
    }

    private synchronized void forget(Allocation a) {
        allocations.remove(a.address(), a);
    }

    /** The allocation holding [address, address + length), or null. */
    synchronized Allocation allocationOf(long address, long length) {
        Map.Entry<Long, Allocation> e = allocations.floorEntry(address);
        if (e == null) {
            return null;
        }
        Allocation a = e.getValue();
        return address + length <= a.address() + a.size() ? a : null;
    }

    // ---- peers ----

    /** The view of the node a GID names: this one, or another process's (mapped on first use). */
    PeerNode peer(Gid gid) {
        if (gid.equals(this.gid)) {
            return self;
        }
        if (!isShmGid(gid)) {
            throw new VerbsException(Errno.EINVAL, "modify_qp: AV dgid " + gid
                    + " is not an shm GID (fd6a:736d:…); the peer must use the shm provider too");
        }
        synchronized (peers) {
            PeerNode p = peers.get(gid);
            if (p == null || p.isGone()) {
                p = PeerNode.open(this, gid);
                peers.put(gid, p);
            }
            return p;
        }
    }

    @Override
    public void close() {
        ctl.set(ValueLayout.JAVA_INT, Layout.H_CLOSED, 1);
        self.poke();
        progress.stop();
        synchronized (peers) {
            for (PeerNode p : peers.values()) {
                p.close();
            }
            peers.clear();
        }
        arena.close();
    }
}
