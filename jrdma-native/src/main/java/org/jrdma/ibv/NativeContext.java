package org.jrdma.ibv;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jrdma.ibv.ffi.AsyncEvents;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Libc;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.ibv.ffi.Ops;
import org.jrdma.verbs.AsyncEvent;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.VerbsException;

/**
 * An open device ({@code struct ibv_context *}). It keeps every object created from it, so that
 * {@link #close()} can release them in dependency order (QPs, SRQs, AHs, MWs, MRs, CQs, channels,
 * PDs) before ibv_close_device, even with work outstanding, and so that events can be mapped back
 * from native pointers to their Java objects.
 */
public final class NativeContext implements Context {
    private final NativeDevice device;
    private final MemorySegment ctx;
    final Ops ops;
    private final int asyncFd;
    private final int phys;
    /** What probeMaxInlineData found; -1 before the first queryDevice. */
    private int maxInlineData = -1;
    private final boolean owned;
    private volatile boolean closed;

    final Registry<NativeQp> qps = new Registry<>();
    final Registry<NativeSrq> srqs = new Registry<>();
    final Registry<NativeAh> ahs = new Registry<>();
    final Registry<NativeMw> mws = new Registry<>();
    final Registry<NativeMr> mrs = new Registry<>();
    final Registry<NativeCq> cqs = new Registry<>();
    final Registry<NativeCompChannel> channels = new Registry<>();
    final Registry<NativePd> pds = new Registry<>();
    /** Live MRs, copy-on-write, for the allocation-free inline-SGE check on the send path. */
    volatile NativeMr[] liveMrs = new NativeMr[0];
    private final AsyncEvents asyncEvents = new AsyncEvents();

    NativeContext(NativeDevice device, MemorySegment ctx) {
        this(device, ctx, true);
    }

    /**
     * {@code owned}: false for a context another library opened and closes (librdmacm's, which
     * {@link LibraryContexts} wraps): close() then releases what jrdma made on it but never calls
     * ibv_close_device.
     */
    NativeContext(NativeDevice device, MemorySegment ctx, boolean owned) {
        this.device = device;
        this.ctx = ctx;
        this.owned = owned;
        this.ops = new Ops(ctx);
        this.asyncFd = IbvCalls.asyncFd(ctx);
        int rc = Libc.setNonBlocking(asyncFd);
        if (rc != 0) {
            if (owned) {
                IbvCalls.closeDevice(ctx);
            }
            throw Native.failure("ibv_open_device " + device.name() + ": O_NONBLOCK on the async fd", rc);
        }
        this.phys = IbvCalls.queryDevice(ctx).physPortCnt();
    }

    /** Objects of one kind, keyed by their native address (for events). */
    static final class Registry<T> {
        final Map<Long, T> byAddress = new ConcurrentHashMap<>();

        void add(MemorySegment handle, T o) {
            byAddress.put(handle.address(), o);
        }

        void remove(MemorySegment handle) {
            byAddress.remove(handle.address());
        }

        T get(MemorySegment handle) {
            return byAddress.get(handle.address());
        }

        List<T> snapshot() {
            return new ArrayList<>(byAddress.values());
        }
    }

    /**
     * The struct ibv_context * itself, for native code that needs it (librdmacm, a later CM).
     *
     * @return the {@code struct ibv_context *}
     */
    public MemorySegment handle() {
        ensureOpen("context");
        return ctx;
    }

    void ensureOpen(String verb) {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, verb + ": the device context was closed");
        }
    }

    @Override
    public NativeDevice device() {
        return device;
    }

    @Override
    public synchronized DeviceAttr queryDevice() {
        ensureOpen("ibv_query_device");
        DeviceAttr d = IbvCalls.queryDevice(ctx);
        if (maxInlineData < 0) {
            maxInlineData = probeMaxInlineData();
        }
        return new DeviceAttr(d.fwVer(), d.nodeGuid(), d.sysImageGuid(), d.maxMrSize(), d.vendorId(),
                d.vendorPartId(), d.hwVer(), d.maxQp(), d.maxQpWr(), d.maxSge(), d.maxCq(), d.maxCqe(), d.maxMr(),
                d.maxPd(), d.maxQpRdAtom(), d.maxQpInitRdAtom(), maxInlineData, d.maxMsgSize(), d.localCaAckDelay(),
                d.physPortCnt());
    }

    /**
     * ibv_device_attr has no max_inline_data: it is granted per QP at create. The device's answer
     * is found once per context, as perftest does, by creating an RC QP asking for less and less
     * inline data until one is granted; 0 when none is.
     */
    private int probeMaxInlineData() {
        NativePd pd = allocPd();
        NativeCq cq = createCq(1, null);
        try {
            for (int ask = 1024; ask >= 16; ask /= 2) {
                try (NativeQp qp = pd.createQp(new org.jrdma.verbs.QpInitAttr().cq(cq)
                        .cap(new org.jrdma.verbs.QpCap(1, 1, 1, 1, ask)))) {
                    return Math.max(ask, qp.cap().maxInlineData());
                } catch (VerbsException refused) {
                    // EINVAL or ENOMEM: more than the device can inline; ask for less
                }
            }
            return 0;
        } finally {
            cq.close();
            pd.close();
        }
    }

    @Override
    public synchronized PortAttr queryPort(int portNum) {
        ensureOpen("ibv_query_port");
        checkPort("ibv_query_port", portNum);
        return IbvCalls.queryPort(ctx, ops, portNum);
    }

    @Override
    public synchronized Gid queryGid(int portNum, int index) {
        ensureOpen("ibv_query_gid");
        checkPort("ibv_query_gid", portNum);
        return IbvCalls.queryGid(ctx, portNum, index);
    }

    private void checkPort(String verb, int port) {
        if (port < 1 || port > phys) {
            throw new VerbsException(Errno.EINVAL, verb + ": port " + port + " outside 1.." + phys + " of "
                    + device.name());
        }
    }

    @Override
    public synchronized NativePd allocPd() {
        ensureOpen("ibv_alloc_pd");
        return NativePd.alloc(this, ctx);
    }

    @Override
    public synchronized CompletionChannel createCompChannel() {
        ensureOpen("ibv_create_comp_channel");
        return NativeCompChannel.create(this, ctx);
    }

    @Override
    public synchronized NativeCq createCq(int cqe, CompletionChannel channel) {
        ensureOpen("ibv_create_cq");
        NativeCompChannel ch = null;
        if (channel != null) {
            if (!(channel instanceof NativeCompChannel c) || c.context() != this) {
                throw new VerbsException(Errno.EINVAL, "ibv_create_cq: the completion channel is not one of this context's");
            }
            ch = c;
        }
        return NativeCq.create(this, ctx, cqe, ch);
    }

    @Override
    public AsyncEvent getAsyncEvent(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            synchronized (this) {
                ensureOpen("ibv_get_async_event");
                AsyncEvents.Raw raw = asyncEvents.tryGet(ctx);
                if (raw != null) {
                    return NativeAsyncEvent.of(this, raw);
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new VerbsException(Errno.ETIMEDOUT, "ibv_get_async_event: no event within " + timeout);
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new VerbsException(Errno.EAGAIN, "ibv_get_async_event: interrupted");
            }
            // poll(2) sleeps in the kernel; slices of ≤ 100 ms let a close or an interrupt end the wait
            Libc.pollIn(asyncFd, (int) Math.max(1, Math.min(100, left / 1_000_000)));
        }
    }

    synchronized void ackAsync(MemorySegment rawEvent) {
        if (!closed) {
            asyncEvents.ack(rawEvent);
        }
    }

    /** Before a QP, CQ or SRQ is destroyed: ibv_destroy_* would wait for its unacked events for ever. */
    synchronized void ackAllAsync() {
        asyncEvents.ackAll();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // children first, in dependency order; each release ignores what its parent's death would do anyway
        for (NativeQp qp : qps.snapshot()) {
            qp.release();
        }
        for (NativeSrq srq : srqs.snapshot()) {
            srq.release();
        }
        for (NativeAh ah : ahs.snapshot()) {
            ah.release();
        }
        for (NativeMw mw : mws.snapshot()) {
            mw.release();
        }
        for (NativeMr mr : mrs.snapshot()) {
            mr.release();
        }
        for (NativeCq cq : cqs.snapshot()) {
            cq.release();
        }
        for (NativeCompChannel ch : channels.snapshot()) {
            ch.release();
        }
        for (NativePd pd : pds.snapshot()) {
            pd.release();
        }
        synchronized (this) {
            asyncEvents.ackAll();
            if (owned) {
                IbvCalls.closeDevice(ctx);
            }
        }
    }

    /**
     * Whether close() ran (a wrapper of a library's context is then made anew by {@link LibraryContexts}).
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return closed;
    }

    /** Adds or removes a live MR in the copy-on-write array the inline check scans. */
    synchronized void liveMr(NativeMr mr, boolean live) {
        List<NativeMr> l = new ArrayList<>(List.of(liveMrs));
        if (live) {
            l.add(mr);
        } else {
            l.remove(mr);
        }
        liveMrs = l.toArray(NativeMr[]::new);
    }

    @Override
    public String toString() {
        return device.name() + " context";
    }
}
