package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.SOCKADDR_IN;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.SOCKADDR_IN6;
import static org.jrdma.ibv.ffi.RdmaCmLayouts.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/** struct sockaddr_in / sockaddr_in6 to and from {@link InetSocketAddress} (Linux: AF_INET 2, AF_INET6 10). */
public final class SockAddrs {
    static final short AF_INET = 2;
    static final short AF_INET6 = 10;

    private SockAddrs() {
    }

    /** A sockaddr_in for an IPv4 address, a sockaddr_in6 (with its scope id) for an IPv6 one. */
    public static MemorySegment write(Arena a, InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        if (ip == null) {
            throw new IllegalArgumentException("an unresolved address: " + address);
        }
        int port = address.getPort();
        byte[] portBe = {(byte) (port >>> 8), (byte) port};
        if (ip instanceof Inet4Address) {
            MemorySegment s = a.allocate(SOCKADDR_IN);
            s.set(JAVA_SHORT, offset(SOCKADDR_IN, "sin_family"), AF_INET);
            MemorySegment.copy(portBe, 0, s, JAVA_BYTE, offset(SOCKADDR_IN, "sin_port"), 2);
            MemorySegment.copy(ip.getAddress(), 0, s, JAVA_BYTE, offset(SOCKADDR_IN, "sin_addr"), 4);
            return s;
        }
        MemorySegment s = a.allocate(SOCKADDR_IN6);
        s.set(JAVA_SHORT, offset(SOCKADDR_IN6, "sin6_family"), AF_INET6);
        MemorySegment.copy(portBe, 0, s, JAVA_BYTE, offset(SOCKADDR_IN6, "sin6_port"), 2);
        MemorySegment.copy(ip.getAddress(), 0, s, JAVA_BYTE, offset(SOCKADDR_IN6, "sin6_addr"), 16);
        s.set(JAVA_INT, offset(SOCKADDR_IN6, "sin6_scope_id"), ((Inet6Address) ip).getScopeId());
        return s;
    }

    /** The address in a sockaddr union, or null when it holds none (family 0, an unbound id). */
    public static InetSocketAddress read(MemorySegment s) {
        short family = s.get(JAVA_SHORT, 0);
        try {
            if (family == AF_INET) {
                int port = port(s, offset(SOCKADDR_IN, "sin_port"));
                byte[] ip = s.asSlice(offset(SOCKADDR_IN, "sin_addr"), 4).toArray(JAVA_BYTE);
                return new InetSocketAddress(InetAddress.getByAddress(ip), port);
            }
            if (family == AF_INET6) {
                int port = port(s, offset(SOCKADDR_IN6, "sin6_port"));
                byte[] ip = s.asSlice(offset(SOCKADDR_IN6, "sin6_addr"), 16).toArray(JAVA_BYTE);
                int scope = s.get(JAVA_INT, offset(SOCKADDR_IN6, "sin6_scope_id"));
                return new InetSocketAddress(Inet6Address.getByAddress(null, ip, scope), port);
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // getByAddress throws only for a wrong length
        }
        return null;
    }

    private static int port(MemorySegment s, long at) {
        return (Byte.toUnsignedInt(s.get(JAVA_BYTE, at)) << 8) | Byte.toUnsignedInt(s.get(JAVA_BYTE, at + 1));
    }

    /** {@code 10.0.0.1:7174}, {@code [fe80::1%2]:7174}, for messages. */
    public static String text(InetSocketAddress a) {
        InetAddress ip = a.getAddress();
        String host = ip == null ? a.getHostString() : ip.getHostAddress();
        return (ip instanceof Inet6Address ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
