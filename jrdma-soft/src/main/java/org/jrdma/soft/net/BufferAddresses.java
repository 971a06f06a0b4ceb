package org.jrdma.soft.net;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The native addresses of direct buffers handed to {@link NativeDatagrams}'s batch calls, one
 * slot per batch position: looked up once per buffer object (the engine reuses its buffers),
 * so a batch call allocates nothing. Holding the buffer keeps its memory alive while the
 * kernel may use the address.
 */
final class BufferAddresses {
    private final ByteBuffer[] buffers = new ByteBuffer[NativeDatagrams.MAX_BATCH];
    private final long[] addresses = new long[NativeDatagrams.MAX_BATCH];

    /** The address of {@code b}'s index 0 (b must be direct). */
    long address(int slot, ByteBuffer b) {
        if (buffers[slot] != b) {
            addresses[slot] = base(b);
            buffers[slot] = b;
        }
        return addresses[slot];
    }

    /** The native address of a direct buffer's index 0. */
    static long base(ByteBuffer b) {
        if (!b.isDirect()) {
            throw new IllegalArgumentException("a batch takes direct buffers only, not " + b);
        }
        return MemorySegment.ofBuffer(b.duplicate().clear()).address();
    }
}
