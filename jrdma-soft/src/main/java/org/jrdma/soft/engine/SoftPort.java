package org.jrdma.soft.engine;

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

    /** True once the socket failed for good (DEVICE_FATAL). */
    boolean isFailed() {
        return failed;
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
    void captureReceived(RoceEndpoint source, ByteBuffer buffer, int offset, int length) {
        PcapWriter open = pcap;
        if (open == null || source.sameAs(endpoint)) {
            return;
        }
        try {
            if (source.record(open, endpoint, buffer, offset, length)) {
                packetsCaptured++;
            }
        } catch (IOException e) {
            stopCapture(open, e);
        }
    }

    /** Records a packet sent to {@code to}. */
    void captureSent(RoceEndpoint to, int ipId, ByteBuffer buffer, int offset, int length) {
        PcapWriter open = pcap;
        if (open == null) {
            return;
        }
        try {
            if (endpoint.record(open, to, ipId, buffer, offset, length)) {
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
}
