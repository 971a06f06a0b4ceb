package org.jrdma.soft.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The base of the header flyweights (Aeron's HeaderFlyweight idea): a view of one header at an
 * offset in a buffer, re-pointed with {@link #wrap} for every packet instead of allocating.
 * Subclasses name their fields with offset constants and read them with the buffer's absolute
 * accessors; the 24-bit fields of InfiniBand (QPNs, PSNs, MSNs) share the helpers here.
 *
 * @param <T> the concrete header, so that {@code wrap} chains into its setters
 */
public abstract class HeaderFlyweight<T extends HeaderFlyweight<T>> {
    static final int MASK_24 = 0xFFFFFF;

    protected ByteBuffer buffer;
    protected int offset;

    /**
     * Points this flyweight at the header that starts at {@code offset}. The buffer must be
     * big-endian: the absolute {@code getInt}/{@code getLong} follow the buffer's byte order,
     * and a little-endian view would silently read every field backwards.
     */
    @SuppressWarnings("unchecked")
    public final T wrap(ByteBuffer buffer, int offset) {
        this.buffer = requireBigEndian(buffer);
        this.offset = offset;
        return (T) this;
    }

    public final ByteBuffer buffer() {
        return buffer;
    }

    public final int offset() {
        return offset;
    }

    /** The low 24 bits of the 32-bit word at {@code wordOffset} (the high byte is another field). */
    protected final int get24(int wordOffset) {
        return buffer.getInt(offset + wordOffset) & MASK_24;
    }

    /** Writes the low 24 bits of the word at {@code wordOffset}, keeping its high byte. */
    protected final void put24(int wordOffset, int value) {
        int word = buffer.getInt(offset + wordOffset);
        buffer.putInt(offset + wordOffset, (word & ~MASK_24) | (value & MASK_24));
    }

    static ByteBuffer requireBigEndian(ByteBuffer buffer) {
        if (buffer.order() != ByteOrder.BIG_ENDIAN) {
            throw new IllegalArgumentException("RoCEv2 headers are big-endian; the buffer is " + buffer.order());
        }
        return buffer;
    }
}
