package org.jrdma.soft.net;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;

/**
 * Turns {@link InetSocketAddress}es into native {@code sockaddr_in}/{@code sockaddr_in6} and
 * back, without allocating while the address does not change: {@link #encode} keeps the last
 * few destinations encoded, and {@link #decode} returns the same object while
 * the raw bytes the kernel wrote equal the last ones (the engine relies on that identity, as it
 * does with the JDK's DatagramChannel). One instance per msghdr; not thread-safe. The encode and
 * decode sides of one instance are separate (a slot is used for sending or for receiving).
 *
 * <p>On an IPv6 socket an IPv4 destination is written as {@code ::ffff:a.b.c.d}, and an
 * IPv4-mapped sender comes back as an {@link Inet4Address}, as the JDK does on a dual-stack socket.
 */
final class NativeSockaddr {
    private static final ValueLayout.OfShort PORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort FAMILY = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED;

    private final boolean ipv6;
    /** Where the kernel reads or writes the address (its own slot in a msghdr's name). */
    private final MemorySegment raw;
    /** The bytes of the last decoded address, to compare the next one with. */
    private final MemorySegment last;
    private int lastLength;
    private InetSocketAddress lastAddress;

    NativeSockaddr(boolean ipv6, MemorySegment raw, MemorySegment last) {
        this.ipv6 = ipv6;
        this.raw = raw;
        this.last = last;
    }

    /** The size of the sockaddr this socket's family uses. */
    int capacity() {
        return ipv6 ? LinuxSockets.SOCKADDR_IN6 : LinuxSockets.SOCKADDR_IN;
    }

    MemorySegment raw() {
        return raw;
    }

    /** Destinations encoded lately: the objects, their bytes (a slot each) and lengths. */
    private static final int CACHED = 8;
    private final InetSocketAddress[] cachedAddress = new InetSocketAddress[CACHED];
    private final int[] cachedLength = new int[CACHED];
    private MemorySegment cache;
    private int nextSlot;
    private int lastSlot = -1;

    /**
     * Writes {@code a} into the raw slot; returns its length. The last few destinations are kept
     * encoded, found by identity or else by equality (the engine's QPs each hold their own
     * object for the same peer, and may take turns), so a known peer costs a copy of at most 28
     * bytes and no allocation; only a new one is encoded.
     */
    int encode(InetSocketAddress a) throws java.net.SocketException {
        if (lastSlot >= 0 && cachedAddress[lastSlot] == a) {
            return cachedLength[lastSlot];
        }
        for (int i = 0; i < CACHED; i++) {
            InetSocketAddress c = cachedAddress[i];
            if (c != null && (c == a || sameDestination(c, a))) {
                MemorySegment.copy(cache, (long) i * 32, raw, 0, cachedLength[i]);
                lastSlot = i;
                return cachedLength[i];
            }
        }
        int length = encodeNew(a);
        if (cache == null) {
            cache = Arena.ofAuto().allocate(32L * CACHED, 8);
        }
        int slot = nextSlot;
        nextSlot = (nextSlot + 1) % CACHED;
        MemorySegment.copy(raw, 0, cache, (long) slot * 32, length);
        cachedAddress[slot] = a;
        cachedLength[slot] = length;
        lastSlot = slot;
        return length;
    }

    private static boolean sameDestination(InetSocketAddress c, InetSocketAddress a) {
        // InetSocketAddress.equals compares address and port without allocating; Inet6Address's
        // ignores the scope, which picks the interface of a link-local address
        return c.equals(a) && (!(a.getAddress() instanceof Inet6Address a6)
                || a6.getScopeId() == ((Inet6Address) c.getAddress()).getScopeId());
    }

    private int encodeNew(InetSocketAddress a) throws java.net.SocketException {
        InetAddress ip = a.getAddress();
        if (ip == null) {
            throw new java.net.SocketException("unresolved address " + a);
        }
        byte[] bytes = ip.getAddress();
        raw.fill((byte) 0);
        if (!ipv6) {
            if (!(ip instanceof Inet4Address)) {
                throw new java.net.SocketException("IPv6 destination " + a + " on an IPv4 socket");
            }
            raw.set(FAMILY, 0, (short) LinuxSockets.AF_INET);
            raw.set(PORT, 2, (short) a.getPort());
            MemorySegment.copy(bytes, 0, raw, ValueLayout.JAVA_BYTE, 4, 4);
            return LinuxSockets.SOCKADDR_IN;
        }
        raw.set(FAMILY, 0, (short) LinuxSockets.AF_INET6);
        raw.set(PORT, 2, (short) a.getPort());
        if (ip instanceof Inet4Address) {
            raw.set(ValueLayout.JAVA_BYTE, 18, (byte) 0xFF);
            raw.set(ValueLayout.JAVA_BYTE, 19, (byte) 0xFF);
            MemorySegment.copy(bytes, 0, raw, ValueLayout.JAVA_BYTE, 20, 4);
        } else {
            MemorySegment.copy(bytes, 0, raw, ValueLayout.JAVA_BYTE, 8, 16);
            raw.set(U32, 24, ((Inet6Address) ip).getScopeId());
        }
        return LinuxSockets.SOCKADDR_IN6;
    }

    /**
     * The address the kernel wrote into the raw slot ({@code length} bytes): the last object
     * when the bytes are unchanged, else a new one.
     */
    InetSocketAddress decode(int length) {
        if (lastAddress != null && length == lastLength
                && MemorySegment.mismatch(raw, 0, length, last, 0, length) == -1) {
            return lastAddress;
        }
        InetSocketAddress a = parse(length);
        MemorySegment.copy(raw, 0, last, 0, length);
        lastLength = length;
        lastAddress = a;
        return a;
    }

    /**
     * {@link #decode}, but first compared with what {@code previous} decoded last: a batch's
     * slots share one sender object while the sender does not change.
     */
    InetSocketAddress decode(int length, NativeSockaddr previous) {
        if (previous != this && previous.lastAddress != null && length == previous.lastLength
                && MemorySegment.mismatch(raw, 0, length, previous.last, 0, length) == -1) {
            if (previous.lastAddress != lastAddress) {
                MemorySegment.copy(raw, 0, last, 0, length);
                lastLength = length;
                lastAddress = previous.lastAddress;
            }
            return lastAddress;
        }
        return decode(length);
    }

    private InetSocketAddress parse(int length) {
        int family = raw.get(FAMILY, 0);
        int port = raw.get(PORT, 2) & 0xFFFF;
        try {
            if (family == LinuxSockets.AF_INET && length >= LinuxSockets.SOCKADDR_IN) {
                return new InetSocketAddress(InetAddress.getByAddress(raw.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE)), port);
            }
            if (family == LinuxSockets.AF_INET6 && length >= LinuxSockets.SOCKADDR_IN6) {
                byte[] b = raw.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
                int scope = raw.get(U32, 24);
                // getByAddress turns ::ffff:a.b.c.d into an Inet4Address, as the JDK's receive does
                InetAddress ip = scope == 0 ? InetAddress.getByAddress(b) : Inet6Address.getByAddress(null, b, scope);
                return new InetSocketAddress(ip, port);
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("sender address of family " + family + ", length " + length);
    }
}
