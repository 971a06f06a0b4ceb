package org.jrdma.soft.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Checks shared by the header flyweights. */
final class Flyweights {
    private Flyweights() {
    }

    /**
     * The flyweights use the buffer's own absolute {@code getInt}/{@code getLong}, which follow
     * the buffer's byte order; the wire is big-endian, so a little-endian view would silently
     * read every field backwards.
     */
    static ByteBuffer requireBigEndian(ByteBuffer buffer) {
        if (buffer.order() != ByteOrder.BIG_ENDIAN) {
            throw new IllegalArgumentException("RoCEv2 headers are big-endian; the buffer is " + buffer.order());
        }
        return buffer;
    }
}
