package org.jrdma.soft.net;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * What one {@link Datagrams#receive(RxBatch)} call took from the socket: up to
 * {@link #slots()} reads, each in its own slot of one direct buffer, with its sender and, when
 * the kernel coalesced several datagrams of one flow into the read (UDP_GRO), their segment
 * size: the read then holds datagrams of that size end to end, the last maybe shorter. The
 * engine walks the datagrams of every read ({@link #datagrams}, {@link #datagramOffset}).
 *
 * <p>One thread at a time (the engine's lock). Nothing allocates after construction.
 */
public final class RxBatch {
    /** The largest read: any UDP datagram, or a coalesced (GRO) run of up to 64 KiB. */
    public static final int MAX_READ = 65_535;

    private final ByteBuffer buffer;
    private final int slotSize;
    private final int slots;
    private int reads;
    private final int[] length;
    private final int[] segment;
    private final InetSocketAddress[] sender;

    /**
     * @param slots    reads per call (at most NativeDatagrams.MAX_BATCH)
     * @param slotSize bytes per read: {@link #MAX_READ} lets a coalesced read hold a whole run
     */
    public RxBatch(int slots, int slotSize) {
        if (slots < 1 || slotSize < 1) {
            throw new IllegalArgumentException(slots + " slots of " + slotSize + " bytes");
        }
        this.slots = slots;
        this.slotSize = slotSize;
        this.buffer = ByteBuffer.allocateDirect(Math.multiplyExact(slots, slotSize)).order(ByteOrder.BIG_ENDIAN);
        this.length = new int[slots];
        this.segment = new int[slots];
        this.sender = new InetSocketAddress[slots];
    }

    /** The buffer every slot is in; datagrams are read from it at absolute offsets. */
    public ByteBuffer buffer() {
        return buffer;
    }

    public int slots() {
        return slots;
    }

    public int slotSize() {
        return slotSize;
    }

    /** Where slot {@code i} starts. */
    public int slotOffset(int i) {
        return i * slotSize;
    }

    /** How many reads the last call took. */
    public int reads() {
        return reads;
    }

    /** Starts a call: no reads yet. */
    public void clear() {
        reads = 0;
    }

    /** Records read {@code i} (the next one): {@code bytes} bytes from {@code from}, GRO segment size {@code segmentSize} or 0. */
    public void read(int i, int bytes, InetSocketAddress from, int segmentSize) {
        length[i] = bytes;
        sender[i] = from;
        segment[i] = segmentSize;
        reads = i + 1;
    }

    public int readLength(int i) {
        return length[i];
    }

    public InetSocketAddress sender(int i) {
        return sender[i];
    }

    /** The GRO segment size of read {@code i}, or 0 when it is one datagram. */
    public int segmentSize(int i) {
        return segment[i];
    }

    /** How many datagrams read {@code i} holds. */
    public int datagrams(int i) {
        int s = segment[i];
        return s <= 0 || length[i] <= s ? 1 : (length[i] + s - 1) / s;
    }

    /** Where datagram {@code k} of read {@code i} starts. */
    public int datagramOffset(int i, int k) {
        return slotOffset(i) + (segment[i] <= 0 ? 0 : k * segment[i]);
    }

    /** The length of datagram {@code k} of read {@code i}. */
    public int datagramLength(int i, int k) {
        int s = segment[i];
        if (s <= 0 || length[i] <= s) {
            return length[i];
        }
        return Math.min(s, length[i] - k * s);
    }
}
