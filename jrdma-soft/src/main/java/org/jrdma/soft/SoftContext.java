package org.jrdma.soft;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jrdma.soft.engine.DeviceListener;
import org.jrdma.soft.engine.SoftHca;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;

/** An open soft device. Several contexts of one device in one JVM share its {@link SoftHca}. */
public final class SoftContext implements Context {
    private final SoftDevice device;
    private final SoftHca hca;
    /** How the device tells this context of port and device events (as async events). */
    private final DeviceListener deviceEvents = (type, port) -> postAsync(type, null, null, null, port);
    private final Set<Object> children = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
    private volatile boolean closed;
    private final org.jrdma.verbs.spi.AsyncEventQueue asyncEvents = new org.jrdma.verbs.spi.AsyncEventQueue(MAX_QUEUED_ASYNC_EVENTS);
    /** Events are capped so an application that never reads them cannot make us grow without bound. */
    private static final int MAX_QUEUED_ASYNC_EVENTS = 4096;

    SoftContext(SoftDevice device, SoftHca hca) {
        this.device = device;
        this.hca = hca;
        hca.attach(deviceEvents);
    }

    /** The engine side (not for code outside this package: the engine package is not exported). */
    SoftHca hca() {
        return hca;
    }

    /** Whether port 1 is up (ibv_query_port's state, as {@link #queryPort} reports it). */
    public boolean portActive() {
        return hca.portActive();
    }

    /**
     * Takes port 1 down or up, as a cable pull would (chaos runs): every context of the device
     * gets PORT_ERR or PORT_ACTIVE, and while it is down packets go nowhere.
     */
    public void setPortActive(boolean active) {
        hca.setPortActive(active);
    }

    /** The device clock's time of the first RDMA packet it sent, or 0 before any (demo timings). */
    public long firstTxNanos() {
        return hca.firstTxNanos();
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public DeviceAttr queryDevice() {
        checkOpen("query_device");
        return SoftAttributes.device(hca.guid());
    }

    @Override
    public PortAttr queryPort(int portNum) {
        checkOpen("query_port");
        checkPort("query_port", portNum);
        return SoftAttributes.port(hca.portActive(), hca.activeMtu());
    }

    @Override
    public Gid queryGid(int portNum, int index) {
        checkOpen("query_gid");
        checkPort("query_gid", portNum);
        if (index != 0) {
            throw new VerbsException(Errno.EINVAL, "query_gid: index " + index + " outside the GID table (1 entry: 0)");
        }
        return hca.gid();
    }

    static void checkPort(String op, int portNum) {
        if (portNum != 1) {
            throw new VerbsException(Errno.EINVAL, op + ": port " + portNum + " does not exist (a soft device has port 1)");
        }
    }

    @Override
    public ProtectionDomain allocPd() {
        checkOpen("alloc_pd");
        return remember(new SoftPd(this));
    }

    @Override
    public CompletionChannel createCompChannel() {
        checkOpen("create_comp_channel");
        return remember(new SoftCompChannel(this));
    }

    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) {
        checkOpen("create_cq");
        if (channel != null && !(channel instanceof SoftCompChannel)) {
            throw new VerbsException(Errno.EINVAL, "create_cq: the channel belongs to another provider");
        }
        return remember(new SoftCq(this, cqe, (SoftCompChannel) channel));
    }

    @Override
    public java.util.Map<String, Long> counters() {
        return hca.countersSnapshot();
    }

    /** Queues an asynchronous event for {@link #getAsyncEvent} (any thread). */
    void postAsync(org.jrdma.verbs.AsyncEventType type, org.jrdma.verbs.QueuePair qp, org.jrdma.verbs.CompletionQueue cq,
            org.jrdma.verbs.SharedReceiveQueue srq, int port) {
        asyncEvents.post(new SoftAsyncEvent(type, qp, cq, srq, port, this));
    }

    @Override
    public org.jrdma.verbs.AsyncEvent getAsyncEvent(java.time.Duration timeout) {
        checkOpen("get_async_event");
        long remaining = timeout.toNanos();
        if (remaining > 0) {
            hca.appBlocking(); // the engine thread moves the packets while we wait
        }
        return asyncEvents.take(timeout);
    }

    void ackAsync() {
        asyncEvents.ack();
    }

    private <T> T remember(T child) {
        children.add(child);
        return child;
    }

    void forget(Object child) {
        children.remove(child);
    }

    private void checkOpen(String op) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, op + ": the device context was closed");
        }
    }

    /**
     * ibv_close_device. Like the kernel's cleanup when a process exits, it destroys what is
     * left: QPs first (their MRs and CQs next), so closing a context never leaks.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Object> left;
        synchronized (children) {
            left = new ArrayList<>(children);
        }
        Map<Class<?>, Integer> order = Map.of(SoftPd.class, 0, SoftCq.class, 1, SoftCompChannel.class, 2);
        left.sort((a, b) -> Integer.compare(order.getOrDefault(a.getClass(), 3), order.getOrDefault(b.getClass(), 3)));
        for (Object o : left) {
            if (o instanceof SoftPd pd) {
                pd.destroyMembers();
                pd.close();
            } else if (o instanceof SoftCq cq) {
                cq.forceClose();
            } else if (o instanceof SoftCompChannel ch) {
                ch.forceClose();
            }
        }
        hca.detach(deviceEvents);
        device.release(hca);
    }
}
