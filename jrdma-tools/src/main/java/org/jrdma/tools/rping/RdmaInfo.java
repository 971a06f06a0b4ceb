package org.jrdma.tools.rping;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * rping's {@code struct rping_rdma_info} — {@code __be64 buf; __be32 rkey; __be32 size;} — the
 * 16 bytes a SEND carries to advertise a buffer for the peer's RDMA READ or WRITE.
 */
record RdmaInfo(long buf, int rkey, int size) {
    static final int BYTES = 16;
    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    void writeTo(MemorySegment s) {
        s.set(BE64, 0, buf);
        s.set(BE32, 8, rkey);
        s.set(BE32, 12, size);
    }

    static RdmaInfo readFrom(MemorySegment s) {
        return new RdmaInfo(s.get(BE64, 0), s.get(BE32, 8), s.get(BE32, 12));
    }

    /**
     * The advertisement a receive of {@code byteLen} bytes left in {@code s}. Anything but exactly
     * 16 bytes is refused, as rping refuses it ("Received bogus data"): a shorter SEND would
     * otherwise be read together with the previous message's stale bytes.
     *
     * @throws VerbsException EPROTO if the peer sent another size
     */
    static RdmaInfo received(MemorySegment s, int byteLen) {
        if (byteLen != BYTES) {
            throw new VerbsException(Errno.EPROTO, "rping: received " + byteLen + " bytes; an rdma_info is " + BYTES);
        }
        return readFrom(s);
    }
}
