package org.jrdma.soft.wire;

/**
 * Flyweight over the 16-byte RDMA Extended Transport Header (ROCEV2-FACTS §1.5), carried by
 * RDMA WRITE FIRST/ONLY and RDMA READ REQUEST.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Virtual Address (bits 63..32)                 |  0
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Virtual Address (bits 31..0)                  |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                             R_Key                             |  8
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                          DMA Length                           | 12
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * DMA Length is the length of the whole RDMA operation, not of this packet; it is unsigned.
 */
public final class Reth extends HeaderFlyweight<Reth> {
    public static final int LENGTH = 16;
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = 8;
    public static final int DMA_LENGTH_OFFSET = 12;

    public long va() {
        return buffer.getLong(offset + VA_OFFSET);
    }

    public Reth va(long va) {
        buffer.putLong(offset + VA_OFFSET, va);
        return this;
    }

    public int rkey() {
        return buffer.getInt(offset + RKEY_OFFSET);
    }

    public Reth rkey(int rkey) {
        buffer.putInt(offset + RKEY_OFFSET, rkey);
        return this;
    }

    /** The raw 32 bits; use {@link #dmaLengthUnsigned()} for arithmetic. */
    public int dmaLength() {
        return buffer.getInt(offset + DMA_LENGTH_OFFSET);
    }

    public long dmaLengthUnsigned() {
        return Integer.toUnsignedLong(dmaLength());
    }

    public Reth dmaLength(int dmaLength) {
        buffer.putInt(offset + DMA_LENGTH_OFFSET, dmaLength);
        return this;
    }
}
