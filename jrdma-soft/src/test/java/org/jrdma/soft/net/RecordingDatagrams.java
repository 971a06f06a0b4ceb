package org.jrdma.soft.net;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A channel that only remembers what was sent (a copy of each datagram, in order) and the
 * waits it was asked for — the inner side of {@link ImpairedDatagrams} in unit tests.
 */
final class RecordingDatagrams implements Datagrams {
    static final InetSocketAddress LOCAL = new InetSocketAddress("127.77.250.1", 4791);
    static final InetSocketAddress PEER = new InetSocketAddress("127.77.250.2", 4791);

    final List<byte[]> sent = new ArrayList<>();
    final List<Long> awaits = new ArrayList<>();
    int wakeups;
    boolean closed;

    @Override
    public InetSocketAddress localAddress() {
        return LOCAL;
    }

    @Override
    public boolean send(ByteBuffer packet, InetSocketAddress destination) {
        byte[] b = new byte[packet.remaining()];
        packet.get(b);
        sent.add(b);
        return true;
    }

    @Override
    public InetSocketAddress receive(ByteBuffer buffer) {
        return null;
    }

    @Override
    public void await(long timeoutNanos) {
        awaits.add(timeoutNanos);
    }

    @Override
    public void wakeup() {
        wakeups++;
    }

    @Override
    public void close() {
        closed = true;
    }

    /**
     * The index a test packet carries three times in its first twelve bytes (see
     * {@link #packet}); a majority vote, so that one flipped bit does not lose it.
     */
    static int index(byte[] datagram) {
        ByteBuffer b = ByteBuffer.wrap(datagram);
        int x = b.getInt(0);
        int y = b.getInt(4);
        int z = b.getInt(8);
        return x == y || x == z ? x : y;
    }

    /**
     * A direct buffer like the engine's: {@code length} (at least 12) bytes, the index three
     * times, then a pattern of the index, so that a flipped bit or a wrong copy shows.
     */
    static ByteBuffer packet(ByteBuffer reuse, int index, int length) {
        reuse.clear();
        reuse.putInt(0, index).putInt(4, index).putInt(8, index);
        for (int i = 12; i < length; i++) {
            reuse.put(i, (byte) (index * 31 + i));
        }
        return reuse.limit(length).position(0);
    }

    static byte[] expected(int index, int length) {
        ByteBuffer b = packet(ByteBuffer.allocate(length), index, length);
        byte[] a = new byte[length];
        b.get(a);
        return a;
    }

    /** How many bits differ. */
    static int bitsDiffering(byte[] a, byte[] b) {
        if (a.length != b.length) {
            return Integer.MAX_VALUE;
        }
        int n = 0;
        for (int i = 0; i < a.length; i++) {
            n += Integer.bitCount((a[i] ^ b[i]) & 0xFF);
        }
        return n;
    }
}
