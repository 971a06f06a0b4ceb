package org.jrdma.bench.baseline;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Busy-polled I/O on non-blocking channels: the baselines spin as perftest, UCX and libfabric
 * spin on their completion queues (a blocking wake-up across vCPUs costs ≈ 30 µs here, see
 * ANCHORS.md). No allocation: the caller's direct buffer is the only buffer.
 */
final class SpinIo {
    private SpinIo() {
    }

    static void writeFully(WritableByteChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            if (ch.write(buf) == 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** Fills the buffer; false at end of stream (a peer that closed). */
    static boolean readFully(ReadableByteChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            int n = ch.read(buf);
            if (n < 0) {
                return false;
            }
            if (n == 0) {
                Thread.onSpinWait();
            }
        }
        return true;
    }
}
