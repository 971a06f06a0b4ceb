package org.jrdma.soft.net;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Linux's zero-checksum switches for UDP over IPv6, set on a {@link DatagramChannel} through
 * the FFM API (the JDK has no socket option for them).
 *
 * <h2>Why</h2>
 * Linux rxe sends every RoCEv2 packet with UDP checksum 0, over IPv6 too (the ICRC protects
 * the payload). RFC 8200 §8.1 forbids a zero UDP checksum over IPv6 unless the receiving
 * socket opts in (RFC 6935/6936, for tunnels), so the kernel drops such a packet before any
 * ordinary socket sees it and counts it in /proc/net/snmp6 {@code Udp6InCsumErrors}. rxe's
 * own socket opts in; a soft device's must too, or nothing rxe sends over IPv6 reaches it
 * (found in the lab: interop/README.md). The option is {@code UDP_NO_CHECK6_RX}.
 * {@code UDP_NO_CHECK6_TX} makes a socket send zero checksums, as rxe does; the tests use it
 * to play rxe.
 *
 * <h2>How</h2>
 * A {@link DatagramChannel} does not publish its file descriptor, so this finds it: among
 * this process's descriptors ({@code /proc/self/fd}) that are sockets, the one whose
 * {@code getsockname} is the channel's bound IPv6 address and port. Then
 * {@code setsockopt(fd, SOL_UDP, option, 1)}. Linux only; elsewhere {@link #set} reports
 * that it did nothing. Calling native code is a restricted operation: without
 * {@code --enable-native-access=ALL-UNNAMED} (which ./jrdma passes) the JVM warns once, and
 * where native access is denied {@link #set} returns false.
 */
public final class UdpChecksumOptions {
    /** {@code SOL_UDP} = IPPROTO_UDP. */
    private static final int SOL_UDP = 17;
    /** linux/udp.h: send UDP checksum 0 over IPv6. */
    public static final int UDP_NO_CHECK6_TX = 101;
    /** linux/udp.h: accept UDP checksum 0 over IPv6. */
    public static final int UDP_NO_CHECK6_RX = 102;
    private static final short AF_INET6 = 10;
    /** sizeof(struct sockaddr_in6). */
    private static final int SOCKADDR_IN6 = 28;

    private UdpChecksumOptions() {
    }

    /**
     * Sets {@code option} ({@link #UDP_NO_CHECK6_RX} or {@link #UDP_NO_CHECK6_TX}) to 1 on an
     * IPv6 channel that is already bound.
     *
     * @return true if the option is now set; false if this is not Linux, native access is
     *     denied, or the channel is not a bound IPv6 socket
     */
    public static boolean set(DatagramChannel channel, int option) throws IOException {
        if (!(channel.getLocalAddress() instanceof InetSocketAddress local)
                || !(local.getAddress() instanceof Inet6Address address)
                || !System.getProperty("os.name", "").startsWith("Linux")) {
            return false;
        }
        Native n;
        try {
            n = Native.INSTANCE;
        } catch (IllegalCallerException | ExceptionInInitializerError | NoClassDefFoundError e) {
            return false;
        }
        int fd = findDescriptor(n, address.getAddress(), local.getPort());
        return fd >= 0 && n.setIntOption(fd, SOL_UDP, option, 1);
    }

    /** The descriptor of the socket bound to (address, port), or -1. */
    private static int findDescriptor(Native n, byte[] address, int port) throws IOException {
        List<Integer> candidates;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            candidates = fds.filter(UdpChecksumOptions::isSocket)
                    .map(p -> Integer.parseInt(p.getFileName().toString())).toList();
        }
        for (int fd : candidates) {
            if (n.boundTo(fd, address, port)) {
                return fd;
            }
        }
        return -1;
    }

    private static boolean isSocket(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString().startsWith("socket:[");
        } catch (IOException e) {
            return false; // closed in the meantime, or /proc's own descriptor
        }
    }

    /** libc's getsockname and setsockopt; loaded on first use. */
    private static final class Native {
        static final Native INSTANCE = new Native();

        private final MethodHandle getsockname;
        private final MethodHandle setsockopt;

        private Native() {
            Linker linker = Linker.nativeLinker();
            var libc = linker.defaultLookup();
            getsockname = linker.downcallHandle(libc.findOrThrow("getsockname"), FunctionDescriptor.of(
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            setsockopt = linker.downcallHandle(libc.findOrThrow("setsockopt"), FunctionDescriptor.of(
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
        }

        /** Whether fd is an IPv6 socket bound to (address, port). */
        boolean boundTo(int fd, byte[] address, int port) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment sa = arena.allocate(SOCKADDR_IN6, 8);
                MemorySegment len = arena.allocateFrom(ValueLayout.JAVA_INT, SOCKADDR_IN6);
                if ((int) getsockname.invokeExact(fd, sa, len) != 0
                        || sa.get(ValueLayout.JAVA_SHORT, 0) != AF_INET6) {
                    return false;
                }
                // sin6_port (network order) at 2, sin6_flowinfo at 4, sin6_addr at 8
                int boundPort = (sa.get(ValueLayout.JAVA_BYTE, 2) & 0xFF) << 8 | sa.get(ValueLayout.JAVA_BYTE, 3) & 0xFF;
                return boundPort == port
                        && MemorySegment.mismatch(sa, 8, 24, MemorySegment.ofArray(address), 0, 16) == -1;
            } catch (Throwable t) {
                throw new IllegalStateException("getsockname", t);
            }
        }

        boolean setIntOption(int fd, int level, int option, int value) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment v = arena.allocateFrom(ValueLayout.JAVA_INT, value);
                return (int) setsockopt.invokeExact(fd, level, option, v, 4) == 0;
            } catch (Throwable t) {
                throw new IllegalStateException("setsockopt", t);
            }
        }
    }
}
