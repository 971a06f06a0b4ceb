package org.jrdma.soft.net;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;

/**
 * A soft device's UDP socket, bound to (its address, 4791).
 *
 * <p>Why unconnected with IP_DONTFRAGMENT: the IPv4 identification field is covered by the
 * ICRC, and Linux writes ID 0 only for an unconnected socket whose packets carry DF with
 * IP_PMTUDISC_DO (ROCEV2-FACTS §8.1); Java's IP_DONTFRAGMENT sets exactly that. With ID 0 on
 * the wire the sender can compute the ICRC the receiver will check. One socket per device
 * means every packet of the device leaves from UDP port 4791; RoCEv2 receivers do not depend
 * on the source port (rxe uses a per-QP port; ECMP entropy does not matter on one link).
 *
 * <p>An IPv6 socket also accepts UDP checksum 0, which rxe sends: see {@link UdpChecksumOptions}.
 */
public final class UdpDatagrams implements Datagrams {
    public static final int ROCE_PORT = 4791;
    private static final System.Logger LOG = System.getLogger(UdpDatagrams.class.getName());
    private static final int SOCKET_BUFFER_BYTES = 8 << 20;

    private final DatagramChannel channel;
    private static final java.util.function.Consumer<java.nio.channels.SelectionKey> IGNORE_KEY = key -> { };
    private final Selector selector;
    private final InetSocketAddress local;

    private UdpDatagrams(DatagramChannel channel, Selector selector, InetSocketAddress local) {
        this.channel = channel;
        this.selector = selector;
        this.local = local;
    }

    /**
     * Binds {@code address}:{@code port}.
     *
     * @throws BindException when another socket (another process's soft device, Linux rxe or a
     *     RoCE NIC) owns the address and port
     */
    public static UdpDatagrams bind(InetAddress address, int port) throws IOException {
        DatagramChannel ch = DatagramChannel.open(address instanceof java.net.Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        try {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
            // without jdk.net in the runtime (class path) it goes without DF, saying so once
            DontFragment.set(ch);
            ch.bind(new InetSocketAddress(address, port));
            if (address instanceof java.net.Inet6Address
                    && !UdpChecksumOptions.set(ch, UdpChecksumOptions.UDP_NO_CHECK6_RX)) {
                LOG.log(System.Logger.Level.WARNING, "{0}: could not set UDP_NO_CHECK6_RX; RoCEv2 packets sent with"
                        + " UDP checksum 0 over IPv6 (as Linux rxe sends them) will not arrive", address);
            }
            ch.configureBlocking(false);
            Selector sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            return new UdpDatagrams(ch, sel, (InetSocketAddress) ch.getLocalAddress());
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
        return channel.send(packet, destination) > 0;
    }

    @Override
    public InetSocketAddress receive(ByteBuffer buffer) throws IOException {
        return (InetSocketAddress) channel.receive(buffer);
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        long millis = Math.max(1, timeoutNanos / 1_000_000);
        // The action form adds nothing to the selected-key set, so a wake-up allocates nothing.
        selector.select(IGNORE_KEY, millis);
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
