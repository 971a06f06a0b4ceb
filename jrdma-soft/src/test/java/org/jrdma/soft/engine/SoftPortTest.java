package org.jrdma.soft.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.soft.PcapReader;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.PcapWriter;
import org.jrdma.soft.net.RoceEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Port 1 alone: its state, the first transmission's time, and what the capture records. */
class SoftPortTest {
    /** A socket bound to {@code local} that moves nothing and remembers being closed. */
    private static final class IdleDatagrams implements Datagrams {
        final InetSocketAddress local;
        boolean closed;

        IdleDatagrams(InetSocketAddress local) {
            this.local = local;
        }

        @Override
        public InetSocketAddress localAddress() {
            return local;
        }

        @Override
        public boolean send(ByteBuffer packet, InetSocketAddress destination) {
            return true;
        }

        @Override
        public InetSocketAddress receive(ByteBuffer buffer) {
            return null;
        }

        @Override
        public void await(long timeoutNanos) {
        }

        @Override
        public void wakeup() {
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @TempDir
    Path dir;
    private long clockNanos;

    private static InetSocketAddress at(String address, int port) throws Exception {
        return new InetSocketAddress(InetAddress.getByName(address), port);
    }

    private SoftPort port(InetSocketAddress local, PcapWriter pcap) {
        return new SoftPort("port-test", new IdleDatagrams(local), pcap, () -> clockNanos);
    }

    @Test
    void thePortGoesDownAndUpAndFailsOnce() throws Exception {
        SoftPort port = port(at("127.0.0.1", 4791), null);
        assertThat(port.isActive()).isTrue();
        assertThat(port.setActive(true)).as("no change").isFalse();
        assertThat(port.setActive(false)).isTrue();
        assertThat(port.isActive()).isFalse();
        assertThat(port.setActive(true)).isTrue();

        assertThat(port.fail()).isTrue();
        assertThat(port.isActive()).as("a failed socket takes the port down").isFalse();
        assertThat(port.fail()).as("once").isFalse();
    }

    @Test
    void theFirstTransmissionKeepsItsTime() throws Exception {
        SoftPort port = port(at("127.0.0.1", 4791), null);
        assertThat(port.firstTxNanos()).isZero();
        clockNanos = 5;
        port.noteTx();
        clockNanos = 9;
        port.noteTx();
        assertThat(port.firstTxNanos()).isEqualTo(5);
    }

    @Test
    void theEndpointIsTheBoundAddress() throws Exception {
        assertThat(port(at("127.0.0.1", 4791), null).endpoint().sameAs(RoceEndpoint.of(at("127.0.0.1", 4791)))).isTrue();
        assertThat(port(at("::1", 4791), null).endpoint().sameAs(RoceEndpoint.of(at("::1", 4791)))).isTrue();
    }

    /** Sent packets and those from other endpoints are recorded; our own, received back, are not (they were recorded leaving). */
    @Test
    void ipv4CaptureRecordsEachPacketOnce() throws Exception {
        Path file = dir.resolve("v4.pcap");
        SoftPort port = port(at("127.0.0.1", 4791), PcapWriter.create(file));
        RoceEndpoint peer = RoceEndpoint.of(at("127.0.0.2", 4791));
        ByteBuffer packet = ByteBuffer.allocate(32);
        assertThat(port.capturing()).isTrue();

        port.captureSent(peer, 0, packet, 0, 32);
        port.captureSent(RoceEndpoint.of(at("127.0.0.3", 4791)), 7, packet, 0, 32); // segment 7 of a GSO send
        port.captureReceived(peer, packet, 0, 32);
        port.captureReceived(port.endpoint(), packet, 0, 32);
        port.captureReceived(RoceEndpoint.of(at("127.0.0.1", 50000)), packet, 0, 32); // our address, another socket
        port.close();

        List<ByteBuffer> records = PcapReader.records(file);
        assertThat(records).hasSize(4);
        assertThat(addresses(records.get(0), 12)).containsExactly(0x7F000001, 0x7F000002);
        assertThat(addresses(records.get(1), 12)).containsExactly(0x7F000001, 0x7F000003);
        assertThat(records.get(0).getShort(4) & 0xFFFF).as("IPv4 ID of a packet sent alone").isZero();
        assertThat(records.get(1).getShort(4) & 0xFFFF).as("IPv4 ID of GSO segment 7").isEqualTo(7);
        assertThat(addresses(records.get(2), 12)).containsExactly(0x7F000002, 0x7F000001);
        assertThat(records.get(3).getShort(20) & 0xFFFF).as("source port").isEqualTo(50000);
        assertThat(port.capturing()).isFalse();
    }

    @Test
    void ipv6CaptureWritesIpv6Records() throws Exception {
        Path file = dir.resolve("v6.pcap");
        SoftPort port = port(at("::1", 4791), PcapWriter.create(file));
        ByteBuffer packet = ByteBuffer.allocate(32);

        port.captureSent(RoceEndpoint.of(at("127.0.0.2", 4791)), 0, packet, 0, 32); // the other family: nothing to record
        port.captureSent(RoceEndpoint.of(at("::2", 4791)), 0, packet, 0, 32);
        port.captureReceived(RoceEndpoint.of(at("::2", 4791)), packet, 0, 32);
        port.close();

        List<ByteBuffer> records = PcapReader.records(file);
        assertThat(records).hasSize(2);
        assertThat(records.get(0).get(0) >>> 4).isEqualTo(6);
        assertThat(records.get(0).get(23)).as("from ::1").isEqualTo((byte) 1);
        assertThat(records.get(0).get(39)).as("to ::2").isEqualTo((byte) 2);
        assertThat(records.get(1).get(23)).as("from ::2").isEqualTo((byte) 2);
    }

    @Test
    void closingClosesTheSocket() throws Exception {
        IdleDatagrams d = new IdleDatagrams(at("127.0.0.1", 4791));
        SoftPort port = new SoftPort("port-test", d, null, () -> 0);
        assertThat(port.capturing()).isFalse();
        port.close();
        assertThat(d.closed).isTrue();
    }

    private static int[] addresses(ByteBuffer ipv4, int at) {
        return new int[] {ipv4.getInt(at), ipv4.getInt(at + 4)};
    }
}
