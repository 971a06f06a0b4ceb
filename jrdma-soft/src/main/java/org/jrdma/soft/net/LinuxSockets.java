package org.jrdma.soft.net;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * libc's socket calls for {@link NativeDatagrams}, as FFM downcalls (Linux, 64-bit: x86_64 and
 * aarch64 share every layout used here). Each call that can fail takes a leading errno-capture
 * segment ({@link #newErrnoState}); read it with {@link #errno}. The calls that never block
 * (the socket and the eventfd are non-blocking, receives pass MSG_DONTWAIT) are linked
 * {@code critical(false)}; {@code poll} is not.
 *
 * <p>Constants checked against this machine's headers (glibc 2.x, Linux 6.x uapi):
 * bits/socket.h (AF_*, MSG_*), bits/socket_type.h (SOCK_*), asm-generic/socket.h (SOL_SOCKET,
 * SO_*BUF), linux/in.h and bits/in.h (IPPROTO_*, IP_MTU_DISCOVER, IP_PMTUDISC_DO), linux/in6.h
 * (IPV6_*), linux/udp.h and netinet/udp.h (SOL_UDP, UDP_SEGMENT, UDP_GRO), bits/eventfd.h
 * (EFD_*), asm-generic/poll.h (POLL*), asm-generic/errno-base.h and errno.h (E*). Octal values in
 * the headers (SOCK_NONBLOCK 04000, SOCK_CLOEXEC 02000000) are written here in hex.
 *
 * <p>Struct layouts (LP64 Linux): msghdr 56 bytes (name@0, namelen u32@8, iov@16, iovlen@24,
 * control@32, controllen@40, flags@48); iovec 16 (base@0, len@8); mmsghdr 64 (msghdr, msg_len
 * u32@56); cmsghdr header 16 (len size_t@0, level@8, type@12, data@16); sockaddr_in 16,
 * sockaddr_in6 28; pollfd 8 (fd@0, events short@4, revents short@6).
 */
final class LinuxSockets {
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int SOCK_DGRAM = 2;
    static final int SOCK_NONBLOCK = 0x800;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int SOL_SOCKET = 1;
    static final int SO_SNDBUF = 7;
    static final int SO_RCVBUF = 8;
    static final int IPPROTO_IP = 0;
    static final int IP_MTU_DISCOVER = 10;
    static final int IP_PMTUDISC_DO = 2;
    static final int IPPROTO_IPV6 = 41;
    static final int IPV6_MTU_DISCOVER = 23;
    static final int IPV6_PMTUDISC_DO = 2;
    static final int IPV6_V6ONLY = 26;
    static final int SOL_UDP = 17;
    static final int UDP_SEGMENT = 103;
    static final int UDP_GRO = 104;
    static final int MSG_DONTWAIT = 0x40;
    static final int MSG_TRUNC = 0x20;
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int EINVAL = 22;
    static final int ENOPROTOOPT = 92;
    static final int EOPNOTSUPP = 95;
    static final int EAGAIN = 11;
    static final int EADDRINUSE = 98;
    static final int EADDRNOTAVAIL = 99;
    static final short POLLIN = 1;
    static final int EFD_NONBLOCK = 0x800;
    static final int EFD_CLOEXEC = 0x80000;

    static final int MSGHDR = 56;
    static final int MMSGHDR = 64;
    static final int IOVEC = 16;
    static final int CMSG_HDR = 16;
    static final int SOCKADDR_IN = 16;
    static final int SOCKADDR_IN6 = 28;
    static final int POLLFD = 8;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout PTR = ValueLayout.ADDRESS;
    private static final MemoryLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** Why native sockets cannot be used here, or null when they can. */
    private static final String UNAVAILABLE;
    private static final LinuxSockets INSTANCE;

    static {
        String why = null;
        LinuxSockets s = null;
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("Linux")) {
            why = "not Linux (" + os + ")";
        } else if (!(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            why = "struct layouts not known for " + arch + " (x86_64 and aarch64 only)";
        } else if (!LinuxSockets.class.getModule().isNativeAccessEnabled()) {
            why = "native access is not enabled for " + nameOf(LinuxSockets.class.getModule())
                    + " (--enable-native-access=org.jrdma.soft, or ALL-UNNAMED on the class path)";
        } else {
            try {
                s = new LinuxSockets();
            } catch (IllegalCallerException e) {
                why = "native access denied: " + e.getMessage();
            } catch (RuntimeException | LinkageError e) {
                why = "libc symbols not found: " + e;
            }
        }
        UNAVAILABLE = why;
        INSTANCE = why == null ? s : null;
    }

    final MethodHandle socket;
    final MethodHandle bind;
    final MethodHandle getsockname;
    final MethodHandle setsockopt;
    final MethodHandle sendmsg;
    final MethodHandle recvmsg;
    final MethodHandle sendmmsg;
    final MethodHandle recvmmsg;
    final MethodHandle poll;
    final MethodHandle eventfd;
    final MethodHandle read;
    final MethodHandle write;
    final MethodHandle close;
    private final MethodHandle strerror;

    private LinuxSockets() {
        Linker linker = Linker.nativeLinker();
        SymbolLookup libc = linker.defaultLookup();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        Linker.Option quick = Linker.Option.critical(false);
        socket = linker.downcallHandle(libc.findOrThrow("socket"), FunctionDescriptor.of(INT, INT, INT, INT), errno, quick);
        bind = linker.downcallHandle(libc.findOrThrow("bind"), FunctionDescriptor.of(INT, INT, PTR, INT), errno, quick);
        getsockname = linker.downcallHandle(libc.findOrThrow("getsockname"),
                FunctionDescriptor.of(INT, INT, PTR, PTR), errno, quick);
        setsockopt = linker.downcallHandle(libc.findOrThrow("setsockopt"),
                FunctionDescriptor.of(INT, INT, INT, INT, PTR, INT), errno, quick);
        // ssize_t sendmsg(int, const struct msghdr *, int); ssize_t recvmsg(int, struct msghdr *, int)
        sendmsg = linker.downcallHandle(libc.findOrThrow("sendmsg"), FunctionDescriptor.of(LONG, INT, PTR, INT), errno, quick);
        recvmsg = linker.downcallHandle(libc.findOrThrow("recvmsg"), FunctionDescriptor.of(LONG, INT, PTR, INT), errno, quick);
        // int sendmmsg(int, struct mmsghdr *, unsigned int, int)
        sendmmsg = linker.downcallHandle(libc.findOrThrow("sendmmsg"),
                FunctionDescriptor.of(INT, INT, PTR, INT, INT), errno, quick);
        // int recvmmsg(int, struct mmsghdr *, unsigned int, int, struct timespec *)
        recvmmsg = linker.downcallHandle(libc.findOrThrow("recvmmsg"),
                FunctionDescriptor.of(INT, INT, PTR, INT, INT, PTR), errno, quick);
        // int poll(struct pollfd *, nfds_t, int): blocks, so not critical
        poll = linker.downcallHandle(libc.findOrThrow("poll"), FunctionDescriptor.of(INT, PTR, LONG, INT), errno);
        eventfd = linker.downcallHandle(libc.findOrThrow("eventfd"), FunctionDescriptor.of(INT, INT, INT), errno, quick);
        read = linker.downcallHandle(libc.findOrThrow("read"), FunctionDescriptor.of(LONG, INT, PTR, LONG), errno, quick);
        write = linker.downcallHandle(libc.findOrThrow("write"), FunctionDescriptor.of(LONG, INT, PTR, LONG), errno, quick);
        close = linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(INT, INT), errno, quick);
        strerror = linker.downcallHandle(libc.findOrThrow("strerror"), FunctionDescriptor.of(PTR, INT));
    }

    /** The downcalls, or null when {@link #unavailableReason()} says why not. */
    static LinuxSockets get() {
        return INSTANCE;
    }

    /** Why native sockets cannot be used in this JVM, or null when they can. */
    static String unavailableReason() {
        return UNAVAILABLE;
    }

    /** A segment for one thread's errno capture (allocate once, reuse per call). */
    static MemorySegment newErrnoState(java.lang.foreign.Arena arena) {
        return arena.allocate(CAPTURE);
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** "sendmsg: errno 90 (Message too long)". */
    String describe(String call, int errno) {
        String text;
        try {
            MemorySegment s = (MemorySegment) strerror.invokeExact(errno);
            text = s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            text = "?";
        }
        return call + ": errno " + errno + " (" + text + ")";
    }

    /** The text strerror gives, for exceptions that must read like the JDK's (BindException). */
    String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) strerror.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static String nameOf(Module m) {
        return m.isNamed() ? m.getName() : "the class path (unnamed module)";
    }
}
