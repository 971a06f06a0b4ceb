package org.jrdma.soft.net;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;
import java.nio.ReadOnlyBufferException;

/**
 * A soft device's UDP socket driven straight through libc ({@link LinuxSockets}, the FFM API)
 * instead of a {@link java.nio.channels.DatagramChannel}: the same socket as
 * {@link UdpDatagrams} — unconnected, 8 MiB buffers asked for, DF with PMTUDISC_DO (so Linux
 * writes IPv4 ID 0, which the ICRC covers), UDP_NO_CHECK6_RX on IPv6, non-blocking — plus the
 * calls the JDK does not offer: GSO sends ({@link #sendSegmented}, UDP_SEGMENT), batches
 * ({@link #sendBatch} with sendmmsg, {@link #receiveBatch} with recvmmsg) and GRO receives
 * ({@link #enableGro}; {@link #lastSegmentSize}). Linux x86_64/aarch64 with native access only:
 * {@link #unavailableReason()} says why not elsewhere; {@link UdpDatagrams} stays the portable path.
 *
 * <p>Over 400 lines because one socket's native state (msghdrs, iovecs, control buffers for
 * the send, receive, batch and wait paths) lives here in one arena; the downcalls are in
 * {@link LinuxSockets}, the address conversions in {@link NativeSockaddr}.
 *
 * <h2>No allocation per packet</h2>
 * The msghdr, iovec, sockaddr and control buffers live in one arena made at bind. A direct
 * buffer is handed to the kernel where it is (its address is looked up once per buffer
 * object); a heap buffer is copied through a 64 KiB native staging buffer. The sender comes
 * back as the same {@link InetSocketAddress} object while its raw sockaddr bytes do not
 * change ({@link NativeSockaddr}), as the JDK's DatagramChannel does and the engine relies on.
 *
 * <h2>Threads</h2>
 * Sends (send, sendSegmented, sendBatch), receives (receive, receiveBatch) and {@link #await}
 * each have their own native structures: one thread at a time per group (the engine's lock
 * orders them), the groups may run at once. {@link #wakeup} is safe from any thread, also
 * racing {@link #close}: it writes the eventfd that {@code await}'s poll watches, under a lock
 * that close takes, so it never writes to a descriptor number that was closed and reused. Close
 * must not race a send, receive or await in another thread (the device closes its socket after
 * its engine stopped); after close each of them throws an IOException.
 *
 * <h2>GSO and GRO on loopback (measured on Linux 6.18; NativeDatagramsTest asserts it)</h2>
 * A {@link #sendSegmented} of 5 × 1000 B + 300 B to a plain socket (this one without GRO, or a
 * DatagramChannel) arrives as 6 datagrams of exactly those bytes. With {@link #enableGro} on
 * the receiver the same send arrives as ONE 5300-byte read whose UDP_GRO control message says
 * 1000: lo supports UDP GSO, so the packet crosses it unsegmented and the kernel segments it
 * only for a receiver that did not ask for GRO. A datagram sent on its own carries no UDP_GRO
 * message ({@link #lastSegmentSize} 0).
 *
 * <h2>The IPv4 ID of GSO segments (measured with tshark)</h2>
 * Captured on lo (in a private network namespace), the GSO send above is one 5328-byte IPv4
 * packet, DF, ID 0. With segmentation forced before the capture point ({@code ip link set lo
 * gso_max_segs 1}, as on a device without UDP segmentation offload) it is 6 packets, DF, with
 * IDs 0, 1, 2, 3, 4, 5; the next GSO send starts at 0 again, and a plain send stays ID 0. So
 * segment i of a DF GSO send carries ID i where it is segmented in software: the ICRC of
 * segment i must cover ID i (a NIC doing the segmentation may do otherwise).
 */
public final class NativeDatagrams implements Datagrams {
    private static final System.Logger LOG = System.getLogger(NativeDatagrams.class.getName());
    private static final int SOCKET_BUFFER_BYTES = 8 << 20;
    /** The largest UDP payload (what the staging buffers hold). */
    static final int MAX_DATAGRAM = 65535;
    /** How many datagrams one {@link #sendBatch} or {@link #receiveBatch} call takes at most. */
    public static final int MAX_BATCH = 64;
    /** Room for one cmsg holding an int (CMSG_SPACE(4) = 24), doubled. */
    private static final int CONTROL = 48;
    private static final int SOCKADDR_SLOT = 32;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    private final LinuxSockets n;
    private final Arena arena;
    private final int fd;
    private final int eventFd;
    private final boolean ipv6;
    private final InetSocketAddress local;
    private final Object closeLock = new Object();
    /**
     * One sender, one receiver and one waiter at a time, as a DatagramChannel and a Selector
     * have them: the native message headers, iovecs and pollfds are shared per direction, and
     * sends do come from two threads at once (an impairment's held packets leave from the device
     * thread while an application thread runs a pass; tests forge packets from theirs). close
     * takes all three, so no call is in the kernel with a descriptor or memory it frees.
     */
    private final ReentrantLock txLock = new ReentrantLock();
    private final ReentrantLock rxLock = new ReentrantLock();
    private final ReentrantLock pollLock = new ReentrantLock();
    private volatile boolean closed;
    private volatile boolean gro;

    // sends
    private final MemorySegment txErrno;
    private final MemorySegment txMsg;
    private final MemorySegment txIov;
    private final MemorySegment txControl;
    private final MemorySegment txStage;
    private final NativeSockaddr txName;
    private ByteBuffer txBuffer;
    private long txBufferAddress;
    private final MemorySegment txBatch;
    private final MemorySegment txBatchIov;
    private final NativeSockaddr[] txBatchNames = new NativeSockaddr[MAX_BATCH];
    private final BufferAddresses txBatchBuffers = new BufferAddresses();
    private final MemorySegment txBatchControl;
    private ByteBuffer txRunBuffer;
    private long txRunAddress;

    // receives
    private final MemorySegment rxErrno;
    private final MemorySegment rxMsg;
    private final MemorySegment rxIov;
    private final MemorySegment rxControl;
    private final MemorySegment rxStage;
    private final NativeSockaddr rxName;
    private ByteBuffer rxBuffer;
    private long rxBufferAddress;
    private int segmentSize;
    private final MemorySegment rxBatch;
    private final MemorySegment rxBatchIov;
    private final MemorySegment rxBatchControl;
    private final NativeSockaddr[] rxBatchNames = new NativeSockaddr[MAX_BATCH];
    private final BufferAddresses rxBatchBuffers = new BufferAddresses();
    /** The batch slot whose sender was decoded last (slot 0 of the next batch compares with it). */
    private int lastBatchSlot;
    private ByteBuffer rxSlotBuffer;
    private long rxSlotAddress;

    // await and wakeup
    private final MemorySegment pollErrno;
    private final MemorySegment pollFds;
    private final MemorySegment drain;
    private final MemorySegment wakeErrno;
    private final MemorySegment one;

    /** Why this JVM cannot use native datagrams (not Linux, no native access, …), or null when it can. */
    public static String unavailableReason() {
        return LinuxSockets.unavailableReason();
    }

    public static boolean isAvailable() {
        return LinuxSockets.unavailableReason() == null;
    }

    /**
     * Binds {@code address}:{@code port} (0 for any free port).
     *
     * @throws BindException when the address and port are taken, or the address is not local
     *     (the message is the kernel's, as with the JDK)
     * @throws IOException when the socket cannot be made, or native datagrams are unavailable
     */
    public static NativeDatagrams bind(InetAddress address, int port) throws IOException {
        LinuxSockets n = LinuxSockets.get();
        if (n == null) {
            throw new IOException("native datagrams unavailable: " + LinuxSockets.unavailableReason());
        }
        Arena arena = Arena.ofShared();
        int fd = -1;
        int efd = -1;
        try {
            MemorySegment err = LinuxSockets.newErrnoState(arena);
            boolean v6 = address instanceof Inet6Address;
            fd = (int) n.socket.invokeExact(err, v6 ? LinuxSockets.AF_INET6 : LinuxSockets.AF_INET,
                    LinuxSockets.SOCK_DGRAM | LinuxSockets.SOCK_NONBLOCK | LinuxSockets.SOCK_CLOEXEC, 0);
            if (fd < 0) {
                throw new IOException(n.describe("socket", LinuxSockets.errno(err)));
            }
            MemorySegment v = arena.allocate(INT);
            // asked for, the kernel caps them at net.core.[rw]mem_max (as with the JDK's options)
            setInt(n, err, v, fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_RCVBUF, SOCKET_BUFFER_BYTES, true);
            setInt(n, err, v, fd, LinuxSockets.SOL_SOCKET, LinuxSockets.SO_SNDBUF, SOCKET_BUFFER_BYTES, true);
            if (v6) {
                setInt(n, err, v, fd, LinuxSockets.IPPROTO_IPV6, LinuxSockets.IPV6_MTU_DISCOVER,
                        LinuxSockets.IPV6_PMTUDISC_DO, true);
                // the JDK's IP_DONTFRAGMENT sets both on an IPv6 socket (IPv4-mapped traffic)
                setInt(n, err, v, fd, LinuxSockets.IPPROTO_IP, LinuxSockets.IP_MTU_DISCOVER,
                        LinuxSockets.IP_PMTUDISC_DO, false);
            } else {
                setInt(n, err, v, fd, LinuxSockets.IPPROTO_IP, LinuxSockets.IP_MTU_DISCOVER,
                        LinuxSockets.IP_PMTUDISC_DO, true);
            }
            NativeSockaddr bindName = new NativeSockaddr(v6, arena.allocate(SOCKADDR_SLOT, 8), arena.allocate(SOCKADDR_SLOT, 8));
            int len = bindName.encode(new InetSocketAddress(address, port));
            if ((int) n.bind.invokeExact(err, fd, bindName.raw(), len) != 0) {
                int e = LinuxSockets.errno(err);
                if (e == LinuxSockets.EADDRINUSE || e == LinuxSockets.EADDRNOTAVAIL) {
                    throw new BindException(n.strerror(e));
                }
                throw new IOException(n.describe("bind " + address.getHostAddress() + ":" + port, e));
            }
            if (v6 && !setInt(n, err, v, fd, LinuxSockets.SOL_UDP, UdpChecksumOptions.UDP_NO_CHECK6_RX, 1, false)) {
                LOG.log(System.Logger.Level.WARNING, "{0}: could not set UDP_NO_CHECK6_RX; RoCEv2 packets sent with"
                        + " UDP checksum 0 over IPv6 (as Linux rxe sends them) will not arrive", address);
            }
            MemorySegment nameLen = arena.allocateFrom(INT, SOCKADDR_SLOT);
            if ((int) n.getsockname.invokeExact(err, fd, bindName.raw(), nameLen) != 0) {
                throw new IOException(n.describe("getsockname", LinuxSockets.errno(err)));
            }
            InetSocketAddress bound = new NativeSockaddr(v6, bindName.raw(), arena.allocate(SOCKADDR_SLOT, 8))
                    .decode(nameLen.get(INT, 0));
            efd = (int) n.eventfd.invokeExact(err, 0, LinuxSockets.EFD_NONBLOCK | LinuxSockets.EFD_CLOEXEC);
            if (efd < 0) {
                throw new IOException(n.describe("eventfd", LinuxSockets.errno(err)));
            }
            return new NativeDatagrams(n, arena, fd, efd, v6, bound);
        } catch (IOException | RuntimeException | Error e) {
            closeQuietly(n, arena, fd);
            closeQuietly(n, arena, efd);
            arena.close();
            throw e;
        } catch (Throwable t) {
            closeQuietly(n, arena, fd);
            closeQuietly(n, arena, efd);
            arena.close();
            throw new IOException("bind " + address + ":" + port, t);
        }
    }

    private NativeDatagrams(LinuxSockets n, Arena arena, int fd, int eventFd, boolean ipv6, InetSocketAddress local) {
        this.n = n;
        this.arena = arena;
        this.fd = fd;
        this.eventFd = eventFd;
        this.ipv6 = ipv6;
        this.local = local;

        txErrno = LinuxSockets.newErrnoState(arena);
        txIov = arena.allocate(LinuxSockets.IOVEC, 8);
        txControl = arena.allocate(CONTROL, 8);
        txStage = arena.allocate(MAX_DATAGRAM, 64);
        txName = new NativeSockaddr(ipv6, arena.allocate(SOCKADDR_SLOT, 8), arena.allocate(SOCKADDR_SLOT, 8));
        txMsg = arena.allocate(LinuxSockets.MSGHDR, 8);
        message(txMsg, txName.raw(), txIov, 1);
        txBatch = arena.allocate((long) LinuxSockets.MMSGHDR * MAX_BATCH, 8);
        txBatchIov = arena.allocate((long) LinuxSockets.IOVEC * MAX_BATCH, 8);
        txBatchControl = arena.allocate((long) CONTROL * MAX_BATCH, 8);
        for (int i = 0; i < MAX_BATCH; i++) {
            txBatchNames[i] = new NativeSockaddr(ipv6, arena.allocate(SOCKADDR_SLOT, 8), arena.allocate(SOCKADDR_SLOT, 8));
            message(txBatch.asSlice((long) i * LinuxSockets.MMSGHDR, LinuxSockets.MMSGHDR), txBatchNames[i].raw(),
                    txBatchIov.asSlice((long) i * LinuxSockets.IOVEC, LinuxSockets.IOVEC), 1);
            segmentMessage(txBatchControl, (long) i * CONTROL);
        }

        rxErrno = LinuxSockets.newErrnoState(arena);
        rxIov = arena.allocate(LinuxSockets.IOVEC, 8);
        rxControl = arena.allocate(CONTROL, 8);
        rxStage = arena.allocate(MAX_DATAGRAM, 64);
        rxName = new NativeSockaddr(ipv6, arena.allocate(SOCKADDR_SLOT, 8), arena.allocate(SOCKADDR_SLOT, 8));
        rxMsg = arena.allocate(LinuxSockets.MSGHDR, 8);
        message(rxMsg, rxName.raw(), rxIov, 1);
        rxBatch = arena.allocate((long) LinuxSockets.MMSGHDR * MAX_BATCH, 8);
        rxBatchIov = arena.allocate((long) LinuxSockets.IOVEC * MAX_BATCH, 8);
        rxBatchControl = arena.allocate((long) CONTROL * MAX_BATCH, 8);
        for (int i = 0; i < MAX_BATCH; i++) {
            rxBatchNames[i] = new NativeSockaddr(ipv6, arena.allocate(SOCKADDR_SLOT, 8), arena.allocate(SOCKADDR_SLOT, 8));
            MemorySegment m = rxBatch.asSlice((long) i * LinuxSockets.MMSGHDR, LinuxSockets.MMSGHDR);
            message(m, rxBatchNames[i].raw(), rxBatchIov.asSlice((long) i * LinuxSockets.IOVEC, LinuxSockets.IOVEC), 1);
            m.set(LONG, 32, rxBatchControl.address() + (long) i * CONTROL);
        }

        pollErrno = LinuxSockets.newErrnoState(arena);
        pollFds = arena.allocate(2L * LinuxSockets.POLLFD, 8);
        pollFds.set(INT, 0, fd);
        pollFds.set(ValueLayout.JAVA_SHORT, 4, LinuxSockets.POLLIN);
        pollFds.set(INT, 8, eventFd);
        pollFds.set(ValueLayout.JAVA_SHORT, 12, LinuxSockets.POLLIN);
        drain = arena.allocate(8, 8);
        wakeErrno = LinuxSockets.newErrnoState(arena);
        one = arena.allocateFrom(LONG, 1L);
    }

    /** Writes a UDP_SEGMENT cmsg header at {@code control[at]}: len CMSG_LEN(2) = 18, SOL_UDP; the size goes at +16. */
    private static void segmentMessage(MemorySegment control, long at) {
        control.set(LONG, at, 18);
        control.set(INT, at + 8, LinuxSockets.SOL_UDP);
        control.set(INT, at + 12, LinuxSockets.UDP_SEGMENT);
    }

    /** Fills a msghdr's fixed fields: name buffer, one iovec, no control. */
    private static void message(MemorySegment msg, MemorySegment name, MemorySegment iov, int iovCount) {
        msg.fill((byte) 0);
        msg.set(LONG, 0, name.address());
        msg.set(LONG, 16, iov.address());
        msg.set(LONG, 24, iovCount);
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    // ------------------------------------------------------------------ one datagram

    @Override
    public boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
        return sendOne(packet, destination, 0);
    }

    /**
     * Sends {@code buffer}'s remaining bytes as datagrams of {@code segmentSize} bytes each (the
     * last one may be shorter) in one sendmsg with a UDP_SEGMENT control message (GSO). At most
     * 64 segments and 65,507 bytes (IPv4) in all; false if the kernel had no room.
     */
    public boolean sendSegmented(ByteBuffer buffer, int segmentSize, InetSocketAddress destination) throws IOException {
        if (segmentSize <= 0 || segmentSize > 0xFFFF) {
            throw new IllegalArgumentException("segment size " + segmentSize);
        }
        return sendOne(buffer, destination, segmentSize);
    }

    private boolean sendOne(ByteBuffer packet, InetSocketAddress destination, int segment) throws IOException {
        txLock.lock();
        try {
            checkOpen();
            int pos = packet.position();
            int length = packet.limit() - pos;
            long data;
            if (packet.isDirect()) {
                if (packet != txBuffer) {
                    txBufferAddress = BufferAddresses.base(packet);
                    txBuffer = packet;
                }
                data = txBufferAddress + pos;
            } else {
                if (length > MAX_DATAGRAM) {
                    throw new IOException("sendmsg: " + length + " bytes do not fit one datagram");
                }
                if (packet.hasArray()) {
                    MemorySegment.copy(packet.array(), packet.arrayOffset() + pos, txStage, ValueLayout.JAVA_BYTE, 0, length);
                } else {
                    MemorySegment.copy(MemorySegment.ofBuffer(packet), 0, txStage, 0, length);
                }
                data = txStage.address();
            }
            txIov.set(LONG, 0, data);
            txIov.set(LONG, 8, length);
            txMsg.set(INT, 8, txName.encode(destination));
            if (segment > 0) {
                // cmsg: len = CMSG_LEN(sizeof(uint16_t)) = 18, SOL_UDP, UDP_SEGMENT, the size; space 24
                segmentMessage(txControl, 0);
                txControl.set(ValueLayout.JAVA_SHORT, 16, (short) segment);
                txMsg.set(LONG, 32, txControl.address());
                txMsg.set(LONG, 40, 24);
            } else {
                txMsg.set(LONG, 32, 0);
                txMsg.set(LONG, 40, 0);
            }
            long sent;
            try {
                sent = (long) n.sendmsg.invokeExact(txErrno, fd, txMsg, 0);
            } catch (Throwable t) {
                throw rethrow("sendmsg", t);
            }
            if (sent < 0) {
                int e = LinuxSockets.errno(txErrno);
                if (e == LinuxSockets.EAGAIN || e == LinuxSockets.EINTR) {
                    return false;
                }
                throw new IOException(n.describe(segment > 0 ? "sendmsg (UDP_SEGMENT " + segment + ") to " + destination
                        : "sendmsg to " + destination, e));
            }
            packet.position(pos + (int) sent);
            return true;
        } finally {
            txLock.unlock();
        }
    }

    @Override
    public InetSocketAddress receive(ByteBuffer buffer) throws IOException {
        rxLock.lock();
        try {
            checkOpen();
            if (buffer.isReadOnly()) {
                throw new ReadOnlyBufferException();
            }
            int pos = buffer.position();
            int room = buffer.limit() - pos;
            boolean direct = buffer.isDirect();
            long data;
            if (direct) {
                if (buffer != rxBuffer) {
                    rxBufferAddress = BufferAddresses.base(buffer);
                    rxBuffer = buffer;
                }
                data = rxBufferAddress + pos;
            } else {
                room = Math.min(room, MAX_DATAGRAM);
                data = rxStage.address();
            }
            rxIov.set(LONG, 0, data);
            rxIov.set(LONG, 8, room);
            rxMsg.set(INT, 8, rxName.capacity());
            boolean withControl = gro;
            rxMsg.set(LONG, 32, withControl ? rxControl.address() : 0);
            rxMsg.set(LONG, 40, withControl ? CONTROL : 0);
            rxMsg.set(INT, 48, 0);
            long got;
            try {
                got = (long) n.recvmsg.invokeExact(rxErrno, fd, rxMsg, LinuxSockets.MSG_DONTWAIT);
            } catch (Throwable t) {
                throw rethrow("recvmsg", t);
            }
            if (got < 0) {
                int e = LinuxSockets.errno(rxErrno);
                if (e == LinuxSockets.EAGAIN || e == LinuxSockets.EINTR) {
                    return null;
                }
                throw new IOException(n.describe("recvmsg", e));
            }
            int length = (int) got;
            if (!direct) {
                if (buffer.hasArray()) {
                    MemorySegment.copy(rxStage, ValueLayout.JAVA_BYTE, 0, buffer.array(), buffer.arrayOffset() + pos, length);
                } else {
                    MemorySegment.copy(rxStage, 0, MemorySegment.ofBuffer(buffer), 0, length);
                }
            }
            buffer.position(pos + length);
            segmentSize = withControl ? groSegment(rxControl, 0, rxMsg.get(LONG, 40)) : 0;
            return rxName.decode(rxMsg.get(INT, 8));
        } finally {
            rxLock.unlock();
        }
    }

    /**
     * The segment size the kernel reported for the last {@link #receive} (a UDP_GRO control
     * message): the read holds several datagrams of this size, the last maybe shorter. 0 when
     * GRO is off or the datagram was not coalesced.
     */
    public int lastSegmentSize() {
        return segmentSize;
    }

    /**
     * Asks the kernel to coalesce received datagrams of one flow (UDP_GRO). A receive then may
     * return several datagrams in one buffer ({@link #lastSegmentSize}); give it room for
     * 64 KiB, or what does not fit is lost. Not for the engine, which expects one packet per read.
     */
    public void enableGro() throws IOException {
        checkOpen();
        synchronized (closeLock) {
            MemorySegment err = LinuxSockets.newErrnoState(arena);
            if (!setInt(n, err, arena.allocate(INT), fd, LinuxSockets.SOL_UDP, LinuxSockets.UDP_GRO, 1, false)) {
                throw new IOException(n.describe("setsockopt UDP_GRO", LinuxSockets.errno(err)));
            }
        }
        gro = true;
    }

    /** The UDP_GRO value among the control messages ({@code controlLength} bytes from {@code base}), or 0. */
    private static int groSegment(MemorySegment control, long base, long controlLength) {
        long at = base;
        long end = base + Math.min(controlLength, CONTROL);
        while (at + LinuxSockets.CMSG_HDR <= end) {
            long len = control.get(LONG, at);
            if (len < LinuxSockets.CMSG_HDR) {
                return 0;
            }
            if (control.get(INT, at + 8) == LinuxSockets.SOL_UDP && control.get(INT, at + 12) == LinuxSockets.UDP_GRO
                    && len >= LinuxSockets.CMSG_HDR + 4) {
                return control.get(INT, at + 16);
            }
            at += (len + 7) & ~7L;
        }
        return 0;
    }

    // ------------------------------------------------------------------ batches

    /**
     * Sends {@code count} datagrams (each packet's remaining bytes, to its destination: peers
     * may differ) in one sendmmsg. Packets must be direct buffers; at most {@link #MAX_BATCH}.
     * Returns how many the kernel took (the first ones, their positions moved to their limits;
     * 0 when it had no room for any): the caller sends the rest later.
     */
    public int sendBatch(ByteBuffer[] packets, InetSocketAddress[] destinations, int count) throws IOException {
        txLock.lock();
        try {
            checkOpen();
            checkCount(count, packets.length, destinations.length);
            for (int i = 0; i < count; i++) {
                ByteBuffer p = packets[i];
                txSlot(i, txBatchBuffers.address(i, p) + p.position(), p.remaining(), txBatchNames[i].encode(destinations[i]), 0);
            }
            int sent = sendmmsg(count);
            if (sent < 0) {
                if (-sent == LinuxSockets.EAGAIN || -sent == LinuxSockets.EINTR) {
                    return 0;
                }
                throw new IOException(n.describe("sendmmsg of " + count, -sent));
            }
            for (int i = 0; i < sent; i++) {
                packets[i].position(packets[i].limit());
            }
            return sent;
        } finally {
            txLock.unlock();
        }
    }

    /**
     * Receives up to {@code count} datagrams in one recvmmsg without blocking: datagram i goes
     * into {@code buffers[i]} from its position (moved past the bytes), its sender into
     * {@code senders[i]} (the same object as the datagram before's, in this batch or the last
     * one, while the sender does not change)
     * and, when {@code segmentSizes} is not null, its GRO segment size (0 if not coalesced)
     * into {@code segmentSizes[i]}. Buffers must be direct; at most {@link #MAX_BATCH}. Returns
     * how many arrived (0 when none was waiting).
     */
    public int receiveBatch(ByteBuffer[] buffers, InetSocketAddress[] senders, int[] segmentSizes, int count)
            throws IOException {
        rxLock.lock();
        try {
            checkOpen();
            checkCount(count, buffers.length, senders.length);
            boolean withControl = gro;
            for (int i = 0; i < count; i++) {
                ByteBuffer b = buffers[i];
                if (b.isReadOnly()) {
                    throw new ReadOnlyBufferException();
                }
                rxSlot(i, rxBatchBuffers.address(i, b) + b.position(), b.remaining(), withControl);
            }
            int got = recvmmsg(count);
            for (int i = 0; i < got; i++) {
                buffers[i].position(buffers[i].position() + rxLength(i));
                senders[i] = rxSender(i);
                if (segmentSizes != null) {
                    segmentSizes[i] = rxSegment(i, withControl);
                }
            }
            if (got > 0) {
                lastBatchSlot = got - 1;
            }
            return got;
        } finally {
            rxLock.unlock();
        }
    }

    // ------------------------------------------------------------------ the engine's batches

    /** Runs of equal packets to one peer leave as one GSO send (the kernel numbers their IDs 0, 1, 2, …). */
    @Override
    public boolean segments() {
        return true;
    }

    /**
     * Sends the batch's messages — a run as one UDP_SEGMENT send, a packet alone as itself — in
     * as few sendmmsg calls as {@link #MAX_BATCH} allows. A message the kernel refuses ends as
     * FAILED, or as NOT_SEGMENTED when it refused to segment it (EIO: the route's device has no
     * checksum offload; EINVAL/ENOPROTOOPT/EOPNOTSUPP: no UDP GSO) and the rest go on; when the
     * socket's buffer is full the rest end as QUEUE_FULL.
     */
    @Override
    public void send(TxBatch batch) {
        txLock.lock();
        try {
            if (closed) {
                for (int m = 0; m < batch.messages(); m++) {
                    batch.messageResult(m, TxBatch.Result.FAILED);
                }
                return;
            }
            ByteBuffer b = batch.buffer();
            if (b != txRunBuffer) {
                txRunAddress = BufferAddresses.base(b);
                txRunBuffer = b;
            }
            int total = batch.messages();
            int m = 0;
            while (m < total) {
                int k = Math.min(total - m, MAX_BATCH);
                for (int j = 0; j < k; j++) {
                    int msg = m + j;
                    int first = batch.messageFirst(msg);
                    int nameLength;
                    try {
                        nameLength = txBatchNames[j].encode(batch.destination(first));
                    } catch (java.net.SocketException e) {
                        nameLength = -1; // an address of the other family: cannot happen (modify_qp, create_ah check it)
                    }
                    if (nameLength < 0) {
                        k = j; // send those before it; this one fails in the next round
                        break;
                    }
                    txSlot(j, txRunAddress + batch.offset(first), batch.messageBytes(msg), nameLength,
                            batch.messageSegment(msg));
                }
                if (k == 0) {
                    batch.messageResult(m++, TxBatch.Result.FAILED);
                    continue;
                }
                int sent;
                try {
                    sent = sendmmsg(k);
                } catch (IOException e) {
                    // cannot happen (the downcall's types are fixed); whatever it was, the packets are lost
                    for (; m < total; m++) {
                        batch.messageResult(m, TxBatch.Result.FAILED);
                    }
                    return;
                }
                if (sent < 0) {
                    int e = -sent;
                    if (e == LinuxSockets.EAGAIN || e == LinuxSockets.EINTR) {
                        for (; m < total; m++) {
                            batch.messageResult(m, TxBatch.Result.QUEUE_FULL);
                        }
                        return;
                    }
                    boolean segmented = batch.messageSegment(m) > 0;
                    batch.messageResult(m, segmented && refusesSegmentation(e) ? TxBatch.Result.NOT_SEGMENTED
                            : TxBatch.Result.FAILED);
                    m++;
                    continue;
                }
                for (int j = 0; j < sent; j++) {
                    batch.messageResult(m + j, TxBatch.Result.SENT);
                }
                m += sent;
            }
        } finally {
            batch.buffer().clear();
            txLock.unlock();
        }
    }

    /** The errnos of a GSO send the route cannot segment (udp_send_skb: EIO, EINVAL; no UDP_SEGMENT: ENOPROTOOPT). */
    private static boolean refusesSegmentation(int errno) {
        return errno == LinuxSockets.EIO || errno == LinuxSockets.EINVAL || errno == LinuxSockets.ENOPROTOOPT
                || errno == LinuxSockets.EOPNOTSUPP;
    }

    /**
     * Takes up to {@code batch.slots()} reads in one recvmmsg without blocking. The first call
     * turns UDP_GRO on when the slots hold 64 KiB, so a run a peer sent as one GSO send arrives
     * as one read (on loopback it crosses unsegmented). After that, a single {@link #receive}
     * may return a coalesced read too ({@link #lastSegmentSize}): the engine uses batches only.
     */
    @Override
    public int receive(RxBatch batch) throws IOException {
        if (!gro && batch.slotSize() >= RxBatch.MAX_READ) {
            enableGro();
        }
        rxLock.lock();
        try {
            checkOpen();
            batch.clear();
            ByteBuffer b = batch.buffer();
            if (b != rxSlotBuffer) {
                rxSlotAddress = BufferAddresses.base(b);
                rxSlotBuffer = b;
            }
            int count = Math.min(batch.slots(), MAX_BATCH);
            boolean withControl = gro;
            for (int i = 0; i < count; i++) {
                rxSlot(i, rxSlotAddress + batch.slotOffset(i), batch.slotSize(), withControl);
            }
            int got = recvmmsg(count);
            for (int i = 0; i < got; i++) {
                batch.read(i, rxLength(i), rxSender(i), rxSegment(i, withControl));
            }
            if (got > 0) {
                lastBatchSlot = got - 1;
            }
            return got;
        } finally {
            rxLock.unlock();
        }
    }

    /**
     * Fills mmsghdr {@code j} of the send batch: one iovec at ({@code address}, {@code length}),
     * the name already encoded in its slot, and a UDP_SEGMENT control message when
     * {@code segment} > 0 — or none, so that no earlier send's control is left behind.
     */
    private void txSlot(int j, long address, int length, int nameLength, int segment) {
        long off = (long) j * LinuxSockets.MMSGHDR;
        writeIov(txBatchIov, j, address, length);
        txBatch.set(INT, off + 8, nameLength);
        if (segment > 0) {
            long c = (long) j * CONTROL;
            txBatchControl.set(ValueLayout.JAVA_SHORT, c + 16, (short) segment);
            txBatch.set(LONG, off + 32, txBatchControl.address() + c);
            txBatch.set(LONG, off + 40, 24);
        } else {
            txBatch.set(LONG, off + 32, 0);
            txBatch.set(LONG, off + 40, 0);
        }
        txBatch.set(INT, off + 56, 0);
    }

    /** One sendmmsg of the first {@code count} slots (txLock held): how many the kernel took, or -errno. */
    private int sendmmsg(int count) throws IOException {
        int sent;
        try {
            sent = (int) n.sendmmsg.invokeExact(txErrno, fd, txBatch, count, 0);
        } catch (Throwable t) {
            throw rethrow("sendmmsg", t);
        }
        return sent < 0 ? -LinuxSockets.errno(txErrno) : sent;
    }

    /** Fills mmsghdr {@code i} of the receive batch: one iovec, room for the sender and, with GRO, a control message. */
    private void rxSlot(int i, long address, int length, boolean withControl) {
        long off = (long) i * LinuxSockets.MMSGHDR;
        writeIov(rxBatchIov, i, address, length);
        rxBatch.set(INT, off + 8, rxBatchNames[i].capacity());
        rxBatch.set(LONG, off + 40, withControl ? CONTROL : 0);
        rxBatch.set(INT, off + 48, 0);
        rxBatch.set(INT, off + 56, 0);
    }

    /** One recvmmsg into the first {@code count} slots without blocking (rxLock held): how many arrived, 0 when none was waiting. */
    private int recvmmsg(int count) throws IOException {
        int got;
        try {
            got = (int) n.recvmmsg.invokeExact(rxErrno, fd, rxBatch, count, LinuxSockets.MSG_DONTWAIT, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow("recvmmsg", t);
        }
        if (got < 0) {
            int e = LinuxSockets.errno(rxErrno);
            if (e == LinuxSockets.EAGAIN || e == LinuxSockets.EINTR) {
                return 0;
            }
            throw new IOException(n.describe("recvmmsg", e));
        }
        return got;
    }

    /** The bytes of read {@code i} of the last recvmmsg. */
    private int rxLength(int i) {
        return rxBatch.get(INT, (long) i * LinuxSockets.MMSGHDR + 56);
    }

    /** The sender of read {@code i}: the same object as the read before's (in this batch or the last one) while it does not change. */
    private InetSocketAddress rxSender(int i) {
        return rxBatchNames[i].decode(rxBatch.get(INT, (long) i * LinuxSockets.MMSGHDR + 8),
                rxBatchNames[i == 0 ? lastBatchSlot : i - 1]);
    }

    /** The GRO segment size of read {@code i}, or 0 (not coalesced, or GRO off). */
    private int rxSegment(int i, boolean withControl) {
        return withControl
                ? groSegment(rxBatchControl, (long) i * CONTROL, rxBatch.get(LONG, (long) i * LinuxSockets.MMSGHDR + 40))
                : 0;
    }

    /** Points iovec i of a batch's iovec array at (address, length). */
    private static void writeIov(MemorySegment iovs, int i, long address, int length) {
        iovs.set(LONG, (long) i * LinuxSockets.IOVEC, address);
        iovs.set(LONG, (long) i * LinuxSockets.IOVEC + 8, length);
    }

    private static void checkCount(int count, int a, int b) {
        if (count < 0 || count > MAX_BATCH || count > a || count > b) {
            throw new IllegalArgumentException("batch of " + count + " (at most " + MAX_BATCH + " and the arrays' lengths)");
        }
    }

    // ------------------------------------------------------------------ waiting

    @Override
    public void await(long timeoutNanos) throws IOException {
        pollLock.lock();
        try {
            checkOpen();
            int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutNanos / 1_000_000));
            pollFds.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
            pollFds.set(ValueLayout.JAVA_SHORT, 14, (short) 0);
            int r;
            try {
                r = (int) n.poll.invokeExact(pollErrno, pollFds, 2L, millis);
            } catch (Throwable t) {
                throw rethrow("poll", t);
            }
            if (r < 0) {
                int e = LinuxSockets.errno(pollErrno);
                if (e == LinuxSockets.EINTR) {
                    return;
                }
                throw new IOException(n.describe("poll", e));
            }
            if ((pollFds.get(ValueLayout.JAVA_SHORT, 14) & LinuxSockets.POLLIN) != 0) {
                try {
                    // resets the eventfd's counter; EAGAIN (another await drained it) is fine
                    long ignored = (long) n.read.invokeExact(pollErrno, eventFd, drain, 8L);
                } catch (Throwable t) {
                    throw rethrow("read eventfd", t);
                }
            }
        } finally {
            pollLock.unlock();
        }
    }

    @Override
    public void wakeup() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            wakeNow();
        }
    }

    /** Adds 1 to the eventfd's counter (closeLock held; EAGAIN, the counter full, still leaves it readable). */
    private void wakeNow() {
        try {
            long ignored = (long) n.write.invokeExact(wakeErrno, eventFd, one, 8L);
        } catch (Throwable t) {
            throw new IllegalStateException("write eventfd", t);
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
            wakeNow(); // a waiter in poll returns, and its lock is free for us below
        }
        // No call is in the kernel with the descriptors or the memory freed below.
        txLock.lock();
        rxLock.lock();
        pollLock.lock();
        try {
            closeQuietly(n, arena, fd);
            closeQuietly(n, arena, eventFd);
        } finally {
            pollLock.unlock();
            rxLock.unlock();
            txLock.unlock();
        }
        arena.close();
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("native datagrams " + local + ": closed");
        }
    }

    // ------------------------------------------------------------------ helpers

    /** setsockopt(fd, level, option, &value, 4); when required, a failure is an IOException. */
    private static boolean setInt(LinuxSockets n, MemorySegment err, MemorySegment v, int fd, int level, int option,
            int value, boolean required) throws IOException {
        v.set(INT, 0, value);
        int r;
        try {
            r = (int) n.setsockopt.invokeExact(err, fd, level, option, v, 4);
        } catch (Throwable t) {
            throw rethrow("setsockopt", t);
        }
        if (r != 0 && required) {
            throw new IOException(n.describe("setsockopt level " + level + " option " + option, LinuxSockets.errno(err)));
        }
        return r == 0;
    }

    private static void closeQuietly(LinuxSockets n, Arena arena, int fd) {
        if (fd < 0) {
            return;
        }
        try {
            int ignored = (int) n.close.invokeExact(LinuxSockets.newErrnoState(arena), fd);
        } catch (Throwable ignored) {
            // nothing more to do for a descriptor that would not close
        }
    }

    private static IOException rethrow(String call, Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IOException(call, t);
    }

    @Override
    public String toString() {
        return "NativeDatagrams[" + local + (ipv6 ? ", IPv6" : "") + (gro ? ", GRO" : "") + "]";
    }
}
