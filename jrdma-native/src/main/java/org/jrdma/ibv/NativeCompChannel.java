package org.jrdma.ibv;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.jrdma.ibv.ffi.Ibv.Fn;
import org.jrdma.ibv.ffi.IbvCalls;
import org.jrdma.ibv.ffi.Libc;
import org.jrdma.ibv.ffi.Native;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * {@code struct ibv_comp_channel *}. Its fd is made non-blocking, and {@link #getEvent} sleeps in
 * poll(2) in slices of at most 100 ms until an event, the deadline, an interrupt or a close.
 */
public final class NativeCompChannel implements CompletionChannel {
    private final NativeContext context;
    private final MemorySegment channel;
    private final int fd;
    private volatile boolean closed;

    private NativeCompChannel(NativeContext context, MemorySegment channel) {
        this.context = context;
        this.channel = channel;
        this.fd = IbvCalls.channelFd(channel);
    }

    static NativeCompChannel create(NativeContext context, MemorySegment ctx) {
        MemorySegment ch = IbvCalls.pointer("ibv_create_comp_channel",
                s -> (MemorySegment) Fn.ibv_create_comp_channel$mh.invokeExact(s, ctx));
        int rc = Libc.setNonBlocking(IbvCalls.channelFd(ch));
        if (rc != 0) {
            IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_comp_channel$mh.invokeExact(s, ch));
            throw Native.failure("ibv_create_comp_channel: O_NONBLOCK", rc);
        }
        NativeCompChannel c = new NativeCompChannel(context, ch);
        context.channels.add(ch, c);
        return c;
    }

    MemorySegment handle() {
        if (closed) {
            throw new VerbsException(Errno.EINVAL, "ibv_create_cq: the completion channel was closed");
        }
        return channel;
    }

    NativeContext context() {
        return context;
    }

    @Override
    public CompletionQueue getEvent(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            synchronized (this) {
                if (closed) {
                    throw new VerbsException(Errno.EBUSY, "ibv_get_cq_event: the completion channel was closed");
                }
                MemorySegment cq = IbvCalls.tryGetCqEvent(channel);
                if (!cq.equals(MemorySegment.NULL)) {
                    NativeCq c = context.cqs.get(cq);
                    if (c == null) {
                        throw new VerbsException(Errno.EIO, "ibv_get_cq_event: an event for a CQ this context does not know");
                    }
                    c.eventTaken();
                    return c;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new VerbsException(Errno.ETIMEDOUT, "ibv_get_cq_event: no completion event within " + timeout);
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new VerbsException(Errno.EAGAIN, "ibv_get_cq_event: interrupted");
            }
            Libc.pollIn(fd, (int) Math.max(1, Math.min(100, (left + 999_999) / 1_000_000)));
        }
    }

    /** ibv_destroy_comp_channel: EBUSY while a CQ uses it. */
    @Override
    public synchronized void close() {
        if (closed || context.isClosed()) {
            return;
        }
        int rc = IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_comp_channel$mh.invokeExact(s, channel));
        if (rc != 0) {
            throw Native.failure("ibv_destroy_comp_channel", rc);
        }
        closed = true;
        context.channels.remove(channel);
    }

    synchronized void release() {
        if (!closed) {
            closed = true;
            IbvCalls.statusQuiet(s -> (int) Fn.ibv_destroy_comp_channel$mh.invokeExact(s, channel));
            context.channels.remove(channel);
        }
    }
}
