package org.jrdma.soft;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.PcapWriter;
import org.jrdma.soft.net.PortHolder;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.VerbsException;

/**
 * Port 1 of a soft device: the UDP endpoint it is bound to (the family chosen there, once), the
 * datagrams that go through it, the packet capture, and the port's state (ACTIVE or DOWN, and
 * whether the socket failed for good). What goes out is captured here as it leaves, what comes
 * in as it arrives.
 */
final class SoftPort {
    private static final System.Logger PCAP_LOG = System.getLogger("org.jrdma.soft.pcap");

    private final String deviceName;
    private final Datagrams datagrams;
    private final RoceEndpoint endpoint;
    private final NanoClock clock;
    /** The capture, or null: none asked for, or stopped after a write failed (see {@link #stopCapture}). */
    private volatile PcapWriter pcap;
    private long packetsCaptured;
    private volatile boolean active = true;
    private volatile boolean failed;
    private volatile long firstTxNanos;

    SoftPort(String deviceName, Datagrams datagrams, PcapWriter pcap, NanoClock clock) {
        this.deviceName = deviceName;
        this.datagrams = datagrams;
        this.endpoint = RoceEndpoint.of(datagrams.localAddress());
        this.pcap = pcap;
        this.clock = clock;
    }

    RoceEndpoint endpoint() {
        return endpoint;
    }

    Datagrams datagrams() {
        return datagrams;
    }

    // ------------------------------------------------------------------ state

    /** ACTIVE, or DOWN after {@link #setActive}(false) or a socket failure (packets then go nowhere). */
    boolean isActive() {
        return active;
    }

    /** Returns whether the state changed. */
    boolean setActive(boolean up) {
        if (active == up) {
            return false;
        }
        active = up;
        return true;
    }

    /** The socket failed for good: the port goes down; true only the first time. */
    boolean fail() {
        if (failed) {
            return false;
        }
        failed = true;
        active = false;
        return true;
    }

    /** Clock time of the first RDMA packet sent through this port, or 0 before any. */
    long firstTxNanos() {
        return firstTxNanos;
    }

    void noteTx() {
        if (firstTxNanos == 0) {
            firstTxNanos = clock.nanoTime();
        }
    }

    // ------------------------------------------------------------------ capture

    /** Whether packets are being recorded (false when none was asked for, or the capture stopped). */
    boolean capturing() {
        return pcap != null;
    }

    /** Records a packet received from {@code source}, unless it is our own (a device talking to itself would appear twice). */
    void captureReceived(RoceEndpoint source, ByteBuffer buffer, int length) {
        PcapWriter open = pcap;
        if (open == null || source.sameAs(endpoint)) {
            return;
        }
        try {
            if (source.record(open, endpoint, buffer, 0, length)) {
                packetsCaptured++;
            }
        } catch (IOException e) {
            stopCapture(open, e);
        }
    }

    /** Records a packet sent to {@code to}. */
    void captureSent(RoceEndpoint to, ByteBuffer buffer, int length) {
        PcapWriter open = pcap;
        if (open == null) {
            return;
        }
        try {
            if (endpoint.record(open, to, buffer, 0, length)) {
                packetsCaptured++;
            }
        } catch (IOException e) {
            stopCapture(open, e);
        }
    }

    /** Records a packet sent to a QP's peer, in the form its transport state keeps it (see {@link RoceEndpoint}). */
    void captureSent(int toIpv4, byte[] toIpv6, int toPort, ByteBuffer buffer, int length) {
        PcapWriter open = pcap;
        if (open == null) {
            return;
        }
        try {
            if (endpoint.record(open, toIpv4, toIpv6, toPort, buffer, 0, length)) {
                packetsCaptured++;
            }
        } catch (IOException e) {
            stopCapture(open, e);
        }
    }

    /**
     * A pcap write failed (a full disk, a removed directory): the capture stops here, with one
     * warning that names the file and the reason. Retrying every packet would print a line per
     * packet and spend the data path's time on a failing file.
     */
    private void stopCapture(PcapWriter broken, IOException e) {
        pcap = null;
        try {
            broken.close();
        } catch (IOException again) {
            // the flush in close fails the same way; the file keeps what was written
        }
        FileTrouble.warnOnce(PCAP_LOG, "pcap write " + broken.file(), "jrdma-soft " + deviceName + ": stopped recording packets"
                + " after " + packetsCaptured + ": cannot write " + broken.file() + ": " + FileTrouble.reason(e)
                + " (traffic goes on; the file holds what was written before)");
    }

    /** Closes the socket, then the capture (the last buffered packets are written, or the failure said). */
    void close() {
        try {
            datagrams.close();
        } catch (IOException e) {
            // closing: nothing left to do with the error
        }
        PcapWriter open = pcap;
        if (open != null) {
            pcap = null;
            try {
                open.close();
            } catch (IOException e) {
                stopCapture(open, e); // the last buffered packets did not fit: say so
            }
        }
    }

    // ------------------------------------------------------------------ opening

    /**
     * Opens the pcap the options ask for. One asked for by name ({@link SoftOptions#pcap}) that
     * cannot be created fails the open, naming the reason; one from {@value SoftOptions#PCAP_DIR_ENV}
     * is skipped with one warning per directory, and the device runs without capture.
     */
    static PcapWriter openPcap(SoftDeviceSpec spec, SoftOptions options) {
        java.nio.file.Path file = options.pcap();
        if (file == null) {
            return null;
        }
        try {
            return PcapWriter.create(file);
        } catch (IOException e) {
            java.nio.file.Path dir = file.toAbsolutePath().getParent();
            String why = "cannot write pcap " + file + ": " + (dir == null || java.nio.file.Files.isDirectory(dir)
                    ? FileTrouble.reason(e)
                    : java.nio.file.Files.exists(dir) ? dir + " is not a directory" : "no such directory " + dir);
            if (options.pcapRequired()) {
                throw new VerbsException(Errno.EIO, "open_device " + spec.name() + ": " + why, e);
            }
            FileTrouble.warnOnce(PCAP_LOG, "pcap " + dir, "jrdma-soft " + spec.name() + ": not recording packets (" + why
                    + "); the devices run without capture — point " + SoftOptions.PCAP_DIR_ENV + " at a writable directory");
            return null;
        }
    }

    /** Binds the device's address (or, for the default loopback device, the next free 127.0.0.N). */
    static Datagrams bind(SoftDeviceSpec spec, SoftOptions options) {
        InetAddress first = spec.address();
        int tries = spec.loopbackFallback() ? 254 : 1;
        byte[] a = first.getAddress();
        BindException last = null;
        PortHolder firstHolder = null;
        for (int i = 0; i < tries; i++) {
            InetAddress addr = first;
            if (i > 0) {
                a[3] = (byte) (i + 1); // 127.0.0.1 → .2 → … → .254
                try {
                    addr = InetAddress.getByAddress(a);
                } catch (UnknownHostException e) {
                    throw new IllegalStateException(e);
                }
                if (addr.equals(first)) {
                    continue;
                }
            }
            InetSocketAddress local = new InetSocketAddress(addr, UdpDatagrams.ROCE_PORT);
            try {
                return options.datagrams().open(local);
            } catch (BindException e) {
                if (notLocal(e, addr)) {
                    throw new VerbsException(Errno.EADDRNOTAVAIL, "open_device " + spec.name() + ": "
                            + text(addr) + " is not an address of this host (" + e.getMessage() + "); a soft"
                            + " device binds a local address — `ip addr` lists them — set with " + SoftDeviceDiscovery.ENV, e);
                }
                last = e;
                if (firstHolder == null) {
                    firstHolder = PortHolder.diagnose(addr, UdpDatagrams.ROCE_PORT);
                    if (firstHolder.kind() == PortHolder.Kind.WILDCARD) {
                        // 0.0.0.0:4791 holds the port on every address: no other 127.0.0.N can help
                        throw new VerbsException(Errno.EADDRINUSE, "open_device " + spec.name() + ": cannot bind UDP "
                                + endpoint(addr) + ": " + firstHolder.explain(), e);
                    }
                }
            } catch (IOException e) {
                throw new VerbsException(Errno.EIO, "open_device " + spec.name() + ": cannot open UDP " + local + ": " + e.getMessage(), e);
            }
        }
        String by = firstHolder != null && firstHolder.owner() != null && !spec.loopbackFallback()
                ? "by " + firstHolder.owner()
                : "by another jrdma process or another program bound to " + (spec.loopbackFallback() ? "them" : "it");
        throw new VerbsException(Errno.EADDRINUSE, "open_device " + spec.name() + ": UDP " + endpoint(first) + " is taken"
                + (spec.loopbackFallback() ? ", and so is every 127.0.0.x" : "") + " (" + by + "); choose another address with "
                + SoftDeviceDiscovery.ENV + (first instanceof java.net.Inet6Address ? "=name=<another local IPv6 address>" : "=name=127.0.0.N"), last);
    }

    /** An address as people write it: 127.0.0.1, or fd00::77 (not Java's fd00:0:0:0:0:0:0:77). */
    private static String text(InetAddress a) {
        return a instanceof java.net.Inet6Address ? Gid.of(a).toString() : a.getHostAddress();
    }

    /** address:4791, with an IPv6 address in brackets. */
    private static String endpoint(InetAddress a) {
        return (a instanceof java.net.Inet6Address ? "[" + text(a) + "]" : text(a)) + ":" + UdpDatagrams.ROCE_PORT;
    }

    /**
     * EADDRNOTAVAIL, which Java reports as a BindException too: the address is not this host's.
     * The message is strerror's (English unless the locale says otherwise), so a non-loopback
     * address that no interface carries counts as well; every 127.x is local.
     */
    private static boolean notLocal(BindException e, InetAddress addr) {
        if (e.getMessage() != null && e.getMessage().contains("Cannot assign requested address")) {
            return true;
        }
        try {
            return !addr.isLoopbackAddress() && java.net.NetworkInterface.getByInetAddress(addr) == null;
        } catch (java.net.SocketException | RuntimeException unknown) {
            return false;
        }
    }
}
