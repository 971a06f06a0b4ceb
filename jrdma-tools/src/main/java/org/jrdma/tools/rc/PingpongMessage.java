package org.jrdma.tools.rc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bytes of a jrdma ping-pong message: what rdma-core's {@code -c} needs, and a marker so
 * that a jrdma peer can check every other byte.
 *
 * <pre>
 *  byte 0          0            rc_pingpong -c: a zero at every page start
 *  bytes 1..4      "jrdm"       the marker: a jrdma message
 *  byte 5          salt         the sender's role (RcEndpoint.SERVER_SALT / CLIENT_SALT)
 *  bytes 6..9      iteration    u32, big-endian
 *  bytes 10..      Pattern      salt and iteration's bytes, with a zero at every multiple of 4096
 * </pre>
 *
 * A message shorter than 10 bytes has no room for the marker: it is the zero and the pattern.
 * Every message of a run differs from every other (short ones almost always), so a stale,
 * duplicated, misplaced or echoed one is told apart.
 *
 * <p>Why 4096: rc_pingpong zeroes {@code buf[i]} for {@code i = 0, page_size, 2·page_size …}
 * with its host's page size, and checks the same places. A zero at every multiple of 4096 is a
 * zero at every page start of any host whose page is 4 KiB or a multiple of it (x86-64, arm64's
 * 4/16/64 KiB, ppc64's 64 KiB), so an rdma-core server anywhere accepts our messages.
 */
public final class PingpongMessage {
    /** rc_pingpong's page size on x86-64; every Linux page size is a multiple of it. */
    public static final int PAGE_BYTES = 4096;
    /** Bytes before the pattern: the page-start zero and the marker. */
    public static final int HEADER_BYTES = 10;
    private static final byte[] MAGIC = {'j', 'r', 'd', 'm'};
    private static final int SALT_AT = 5;
    private static final int ITERATION_AT = 6;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.BIG_ENDIAN);

    private PingpongMessage() {
    }

    /** Writes message {@code iteration} of side {@code salt} into {@code size} bytes at {@code offset}. */
    public static void write(MemorySegment seg, long offset, int size, long iteration, int salt) {
        Pattern.fill(seg, offset, size, iteration, salt);
        if (size >= HEADER_BYTES) {
            MemorySegment.copy(MemorySegment.ofArray(header(iteration, salt)), 0, seg, offset, HEADER_BYTES);
        }
        for (long page = 0; page < size; page += PAGE_BYTES) {
            seg.set(ValueLayout.JAVA_BYTE, offset + page, (byte) 0);
        }
    }

    private static byte[] header(long iteration, int salt) {
        byte[] h = new byte[HEADER_BYTES];
        System.arraycopy(MAGIC, 0, h, 1, MAGIC.length);
        h[SALT_AT] = (byte) salt;
        MemorySegment.ofArray(h).set(U32, ITERATION_AT, (int) iteration);
        return h;
    }

    /** The sender's salt if the {@code size} bytes at {@code offset} carry the marker, else -1. */
    static int markedSalt(MemorySegment seg, long offset, int size) {
        if (size < HEADER_BYTES || seg.get(ValueLayout.JAVA_BYTE, offset) != 0
                || MemorySegment.mismatch(seg, offset + 1, offset + 1 + MAGIC.length, MemorySegment.ofArray(MAGIC), 0, MAGIC.length) >= 0) {
            return -1;
        }
        return seg.get(ValueLayout.JAVA_BYTE, offset + SALT_AT) & 0xff;
    }

    /** The iteration a marked message names. */
    static long markedIteration(MemorySegment seg, long offset) {
        return seg.get(U32, offset + ITERATION_AT) & 0xffff_ffffL;
    }

    /** rc_pingpong -c's rule: the first page start (a multiple of 4096) that is not 0, or -1. */
    static long firstNonZeroPageStart(MemorySegment seg, long offset, int size) {
        for (long page = 0; page < size; page += PAGE_BYTES) {
            if (seg.get(ValueLayout.JAVA_BYTE, offset + page) != 0) {
                return page;
            }
        }
        return -1;
    }
}
