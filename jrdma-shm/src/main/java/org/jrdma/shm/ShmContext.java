package org.jrdma.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.PortState;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SharedReceiveQueue;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.AsyncEventQueue;

/** An open shm device: the node it shares, the objects it made, its asynchronous events. */
final class ShmContext implements Context {
    private static final int MAX_QUEUED_EVENTS = 1024;
    final ShmDevice device;
    final Node node;
    private final List<AutoCloseable> children = new ArrayList<>();
    private final AsyncEventQueue events = new AsyncEventQueue(MAX_QUEUED_EVENTS);
    private volatile boolean closed;

    ShmContext(ShmDevice device, Node node) {
        this.device = device;
        this.node = node;
    }

    /** Whether close() is destroying what the application left (then CQs and channels go regardless). */
    boolean isClosing() {
        return closed;
    }

    void checkOpen(String op) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, op + ": the context was closed");
        }
    }

    static void checkPort(String op, int port) {
        if (port != 1) {
            throw new VerbsException(Errno.EINVAL, op + ": port " + port + " does not exist (the shm device has port 1)");
        }
    }

    <T extends AutoCloseable> T remember(T child) {
        synchronized (children) {
            children.add(child);
        }
        return child;
    }

    void forget(AutoCloseable child) {
        synchronized (children) {
            children.remove(child);
        }
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public DeviceAttr queryDevice() {
        checkOpen("query_device");
        return new DeviceAttr("jrdma-shm 0.1", ShmDevice.GUID, ShmDevice.GUID, Limits.MAX_MR_SIZE, 0, 0, 0,
                Layout.QP_SLOTS, Limits.MAX_QP_WR, Limits.MAX_SGE, Layout.CQ_SLOTS, Limits.MAX_CQE, Layout.MR_SLOTS,
                Limits.MAX_PD, Limits.MAX_RD_ATOMIC, Limits.MAX_RD_ATOMIC, Limits.MAX_INLINE, Limits.MAX_MSG, 0, 1);
    }

    @Override
    public PortAttr queryPort(int portNum) {
        checkOpen("query_port");
        checkPort("query_port", portNum);
        // Ethernet, so that peers address each other by GID (the GID names the node), as on RoCE.
        return new PortAttr(PortState.ACTIVE, Mtu.MTU_4096, Mtu.MTU_4096, 1, 0, 0, "Ethernet", (int) Math.min(Integer.MAX_VALUE, Limits.MAX_MSG));
    }

    @Override
    public Gid queryGid(int portNum, int index) {
        checkOpen("query_gid");
        checkPort("query_gid", portNum);
        if (index != 0) {
            throw new VerbsException(Errno.EINVAL, "query_gid: index " + index + " outside the GID table (1 entry: 0)");
        }
        return node.gid;
    }

    @Override
    public ProtectionDomain allocPd() {
        checkOpen("alloc_pd");
        return remember(new ShmPd(this));
    }

    @Override
    public CompletionChannel createCompChannel() {
        checkOpen("create_comp_channel");
        return remember(new ShmChannel(this));
    }

    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) {
        checkOpen("create_cq");
        if (channel != null && !(channel instanceof ShmChannel)) {
            throw new VerbsException(Errno.EINVAL, "create_cq: the channel belongs to another provider");
        }
        return remember(new ShmCq(this, cqe, (ShmChannel) channel));
    }

    @Override
    public MemorySegment allocateMemory(long byteSize, Arena arena) {
        checkOpen("allocate");
        return node.allocate(byteSize, arena);
    }

    void postAsync(AsyncEventType type, QueuePair qp, CompletionQueue cq, SharedReceiveQueue srq) {
        events.post(new ShmAsyncEvent(type, qp, cq, srq, this));
    }

    @Override
    public AsyncEvent getAsyncEvent(Duration timeout) {
        checkOpen("get_async_event");
        return events.take(timeout);
    }

    void ackAsync() {
        events.ack();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<AutoCloseable> left;
        synchronized (children) {
            left = new ArrayList<>(children);
        }
        // PDs first (their QPs, SRQs and MRs with them), then CQs, then channels.
        left.sort((a, b) -> Integer.compare(rank(a), rank(b)));
        for (AutoCloseable o : left) {
            if (o instanceof ShmPd pd) {
                pd.destroyMembers();
            }
            try {
                o.close();
            } catch (Exception | Error e) {
                // closing what the application left open: go on with the rest
            }
        }
        Node.release(node);
    }

    private static int rank(Object o) {
        return o instanceof ShmPd ? 0 : o instanceof ShmCq ? 1 : 2;
    }

    @Override
    public String toString() {
        return "ShmContext{" + device.name() + ", " + node.gid + "}";
    }
}
