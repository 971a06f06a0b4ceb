package org.jrdma.tools.rping;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The text rping's client puts in its start buffer for ping {@code n}: "rdma-ping-n: " and then
 * letters running from a start character that moves one step per ping ('A' … 'z', 65 … 122,
 * wrapping), NUL-terminated in the last byte — so each ping's buffer differs from the last.
 */
final class PingText {
    static final String FORMAT = "rdma-ping-%d: ";
    static final int FIRST = 65;
    static final int LAST = 122;
    /** rping's RPING_MIN_BUFSIZE: sizeof("0x7fffffff") + sizeof(RPING_MSG_FMT) = 11 + 15. */
    static final int MIN_SIZE = 26;
    /** rping's RPING_BUFSIZE − 1. */
    static final int MAX_SIZE = 64 * 1024 - 1;

    private PingText() {
    }

    /** Fills {@code buf[0, size)} for ping {@code ping} whose letters begin at {@code start}. */
    static void fill(MemorySegment buf, int size, long ping, int start) {
        byte[] head = String.format(FORMAT, ping).getBytes(StandardCharsets.US_ASCII);
        int n = Math.min(head.length, size);
        MemorySegment.copy(head, 0, buf, ValueLayout.JAVA_BYTE, 0, n);
        int c = start;
        for (int i = n; i < size; i++) {
            buf.set(ValueLayout.JAVA_BYTE, i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        buf.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 0);
    }

    static int nextStart(int start) {
        return start == LAST ? FIRST : start + 1;
    }

    /** The NUL-terminated text at the start of {@code buf}, as rping's printf("%s") shows it. */
    static String text(MemorySegment buf, int size) {
        int len = 0;
        while (len < size && buf.get(ValueLayout.JAVA_BYTE, len) != 0) {
            len++;
        }
        return new String(buf.asSlice(0, len).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII);
    }
}
