package org.jrdma.soft.net;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The packets one engine pass sends, laid end to end in one direct buffer and grouped into
 * messages as they are added, so that {@link Datagrams#send(TxBatch)} hands them to the kernel
 * in as few calls as it can: a run of packets of one length to one destination (the last may
 * be shorter) is one message, which a channel that {@linkplain Datagrams#segments() segments}
 * sends as one GSO send (UDP_SEGMENT); every message of the batch goes in one sendmmsg.
 *
 * <h2>The IPv4 ID of each packet</h2>
 * The ICRC covers the IPv4 identification. Our socket is unconnected and sends with DF, so Linux
 * writes ID 0 on a datagram sent alone; when it segments a GSO send it numbers the segments
 * 0, 1, 2, … from the first (measured with tshark, see {@link NativeDatagrams}). So
 * {@link #add} returns the ID a packet will leave with — its index in its run, 0 when runs are
 * not made — and the caller computes the ICRC for it. Receivers that cannot see the IP header
 * (ours) solve for the ID ({@link org.jrdma.soft.wire.IcrcVerifier}); rxe and NICs see it.
 *
 * <p>One thread at a time (the engine's lock). Nothing allocates after construction.
 */
public final class TxBatch {
    /** Packets in one batch: what one sendmmsg takes (NativeDatagrams.MAX_BATCH). */
    public static final int MAX_PACKETS = 64;
    /** Segments in one GSO send (the kernel's UDP_MAX_SEGMENTS is 64 on older kernels, 128 on newer). */
    static final int MAX_SEGMENTS = 64;
    /** Bytes in one GSO send: below IPv4's 65,507 bytes of UDP payload. */
    static final int MAX_SEGMENTED_BYTES = 65_000;

    /** What became of a packet in the last {@link Datagrams#send(TxBatch)}. */
    public enum Result {
        /** The kernel took it. */
        SENT,
        /** The socket's buffer was full: the packet is lost (the transport resends it). */
        QUEUE_FULL,
        /** The kernel refused it: lost, counted as a TX error. */
        FAILED,
        /**
         * The kernel refused to segment its run (the route's device offers no UDP segmentation
         * or checksum offload): the caller sends it again alone, with the ICRC for ID 0.
         */
        NOT_SEGMENTED
    }

    private final ByteBuffer buffer;
    private boolean segments;
    private int tail;
    private int count;
    private final int[] offset = new int[MAX_PACKETS];
    private final int[] length = new int[MAX_PACKETS];
    private final RoceEndpoint[] peer = new RoceEndpoint[MAX_PACKETS];
    private final Result[] result = new Result[MAX_PACKETS];
    private int messages;
    private final int[] messageFirst = new int[MAX_PACKETS];
    private final int[] messagePackets = new int[MAX_PACKETS];
    private final int[] messageBytes = new int[MAX_PACKETS];
    /** Whether the last message may take another segment (a shorter packet ends a run). */
    private boolean runOpen;

    /**
     * @param capacity bytes of packets one batch holds
     * @param segments whether runs are made (the channel {@linkplain Datagrams#segments() segments})
     */
    public TxBatch(int capacity, boolean segments) {
        this.buffer = ByteBuffer.allocateDirect(capacity).order(ByteOrder.BIG_ENDIAN);
        this.segments = segments;
    }

    /** The buffer packets are built in; its position and limit are the caller's while building. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** Where the next packet is built. */
    public int tail() {
        return tail;
    }

    /** Whether a packet of up to {@code bytes} bytes can still be built at {@link #tail()}. */
    public boolean hasRoom(int bytes) {
        return count < MAX_PACKETS && buffer.capacity() - tail >= bytes;
    }

    /** Whether packets are grouped into runs (false after {@link #stopSegmenting}). */
    public boolean segments() {
        return segments;
    }

    /** From now on every packet is a message of its own (the kernel refused a GSO send). */
    public void stopSegmenting() {
        segments = false;
        runOpen = false;
    }

    /** The IPv4 ID a {@code bytes}-byte packet for {@code to} would leave with if {@link #add}ed now. */
    public int nextId(RoceEndpoint to, int bytes) {
        return joinsRun(to, bytes) ? messagePackets[messages - 1] : 0;
    }

    /**
     * Adds the {@code bytes}-byte packet built at {@link #tail()} for {@code to} and returns
     * the IPv4 ID it will leave with: its index in its run ({@link #nextId}).
     */
    public int add(RoceEndpoint to, int bytes) {
        if (!hasRoom(bytes)) {
            throw new IllegalStateException("batch full: " + count + " packets, " + tail + " bytes");
        }
        boolean joins = joinsRun(to, bytes);
        int i = count++;
        offset[i] = tail;
        length[i] = bytes;
        peer[i] = to;
        result[i] = null;
        tail += bytes;
        if (joins) {
            int m = messages - 1;
            messageBytes[m] += bytes;
            runOpen = bytes == length[messageFirst[m]];
            return messagePackets[m]++;
        }
        int m = messages++;
        messageFirst[m] = i;
        messagePackets[m] = 1;
        messageBytes[m] = bytes;
        runOpen = segments;
        return 0;
    }

    /** Whether a packet joins the open run: same peer, not longer than its segments, room left in one GSO send. */
    private boolean joinsRun(RoceEndpoint to, int bytes) {
        if (!runOpen) {
            return false;
        }
        int m = messages - 1;
        int first = messageFirst[m];
        RoceEndpoint runTo = peer[first];
        return bytes <= length[first] && (runTo == to || runTo.sameAs(to)) && messagePackets[m] < MAX_SEGMENTS
                && messageBytes[m] + bytes <= MAX_SEGMENTED_BYTES;
    }

    /** Empties the batch (after a send). */
    public void clear() {
        for (int i = 0; i < count; i++) {
            peer[i] = null;
        }
        count = 0;
        messages = 0;
        tail = 0;
        runOpen = false;
        buffer.clear();
    }

    public int count() {
        return count;
    }

    public int offset(int packet) {
        return offset[packet];
    }

    public int length(int packet) {
        return length[packet];
    }

    /** Where the packet goes. */
    public RoceEndpoint peer(int packet) {
        return peer[packet];
    }

    /** Where the packet goes, as the socket takes it. */
    public InetSocketAddress destination(int packet) {
        return peer[packet].socketAddress();
    }

    public Result result(int packet) {
        return result[packet];
    }

    /** Records what became of {@code packet}. */
    public void result(int packet, Result r) {
        result[packet] = r;
    }

    /** Records {@code r} for every packet of {@code message}. */
    public void messageResult(int message, Result r) {
        for (int i = messageFirst[message], end = i + messagePackets[message]; i < end; i++) {
            result[i] = r;
        }
    }

    public int messages() {
        return messages;
    }

    /** The index of the message's first packet; its bytes start at that packet's offset. */
    public int messageFirst(int message) {
        return messageFirst[message];
    }

    public int messagePackets(int message) {
        return messagePackets[message];
    }

    public int messageBytes(int message) {
        return messageBytes[message];
    }

    /** The GSO segment size of a message of several packets (its first packet's length), or 0. */
    public int messageSegment(int message) {
        return messagePackets[message] > 1 ? length[messageFirst[message]] : 0;
    }
}
