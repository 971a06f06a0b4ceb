package org.jrdma.soft.wire;

/**
 * Flyweight over the 8-byte Atomic Acknowledge Extended Transport Header (ROCEV2-FACTS §1.5):
 * the value the target held before the atomic, following the AETH of an ATOMIC_ACKNOWLEDGE.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |             Original Remote Data (bits 63..32)                |  0
 *  |             Original Remote Data (bits 31..0)                 |  4
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class AtomicAckEth extends HeaderFlyweight<AtomicAckEth> {
    public static final int LENGTH = 8;
    public static final int ORIGINAL_OFFSET = 0;

    public long originalValue() {
        return buffer.getLong(offset + ORIGINAL_OFFSET);
    }

    public AtomicAckEth originalValue(long value) {
        buffer.putLong(offset + ORIGINAL_OFFSET, value);
        return this;
    }
}
