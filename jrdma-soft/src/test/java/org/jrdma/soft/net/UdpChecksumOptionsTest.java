package org.jrdma.soft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Linux rxe sends UDP checksum 0 over IPv6; the kernel drops that for an ordinary socket
 * (Udp6InCsumErrors) and delivers it to one with UDP_NO_CHECK6_RX. A socket with
 * UDP_NO_CHECK6_TX plays rxe here, on ::1. Loopback keeps datagram order, so "the zero-checksum
 * datagram was dropped" is observed as "the next one arrived first" — no waiting for absence.
 */
class UdpChecksumOptionsTest {
    private static InetAddress loopback6;

    @BeforeAll
    static void linuxWithIpv6() throws IOException {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "Linux socket options");
        loopback6 = InetAddress.getByName("::1");
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            probe.bind(new InetSocketAddress(loopback6, 0));
        } catch (IOException e) {
            assumeTrue(false, "no IPv6 loopback: " + e);
        }
    }

    @Test
    void anOrdinarySocketDropsZeroChecksumAndTheRxeSenderReallySendsIt() throws IOException {
        try (DatagramChannel receiver = bound6(); DatagramChannel rxe = bound6(); DatagramChannel normal = bound6()) {
            assertTrue(UdpChecksumOptions.set(rxe, UdpChecksumOptions.UDP_NO_CHECK6_TX));
            send(rxe, "zero checksum", receiver.getLocalAddress());
            send(normal, "computed checksum", receiver.getLocalAddress());
            receiver.configureBlocking(true);
            assertEquals("computed checksum", receive(receiver));
        }
    }

    @Test
    void aSoftDeviceSocketReceivesZeroChecksum() throws IOException, InterruptedException {
        try (UdpDatagrams device = UdpDatagrams.bind(loopback6, 0); DatagramChannel rxe = bound6()) {
            assertTrue(UdpChecksumOptions.set(rxe, UdpChecksumOptions.UDP_NO_CHECK6_TX));
            send(rxe, "zero checksum", device.localAddress());
            ByteBuffer buf = ByteBuffer.allocate(64);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            InetSocketAddress from = null;
            while (from == null && System.nanoTime() < deadline) {
                device.await(TimeUnit.MILLISECONDS.toNanos(100));
                from = device.receive(buf);
            }
            assertNotNull(from, "the zero-checksum datagram did not arrive");
            assertEquals(rxe.getLocalAddress(), from);
            assertEquals("zero checksum", StandardCharsets.US_ASCII.decode(buf.flip()).toString());
        }
    }

    @Test
    void anIpv4OrUnboundChannelIsLeftAlone() throws IOException {
        try (DatagramChannel v4 = DatagramChannel.open(StandardProtocolFamily.INET);
                DatagramChannel unbound = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            v4.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            assertFalse(UdpChecksumOptions.set(v4, UdpChecksumOptions.UDP_NO_CHECK6_RX));
            assertFalse(UdpChecksumOptions.set(unbound, UdpChecksumOptions.UDP_NO_CHECK6_RX));
        }
    }

    private static DatagramChannel bound6() throws IOException {
        DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET6);
        ch.bind(new InetSocketAddress(loopback6, 0));
        return ch;
    }

    private static void send(DatagramChannel from, String text, java.net.SocketAddress to) throws IOException {
        from.send(StandardCharsets.US_ASCII.encode(text), to);
    }

    private static String receive(DatagramChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(64);
        ch.receive(buf);
        return StandardCharsets.US_ASCII.decode(buf.flip()).toString();
    }
}
