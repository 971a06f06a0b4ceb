package org.jrdma.soft;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.soft.net.DatagramsFactory;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.soft.wire.Bth;

/**
 * A real UDP socket whose outgoing packets pass a test's filter first: the filter sees the
 * opcode and PSN and decides to drop — deterministic loss, for testing recovery.
 */
final class FilteringDatagrams extends ForwardingDatagrams {
    /** Decides per outgoing packet; {@code index} counts every packet sent so far (from 0). */
    interface Filter {
        boolean drop(int index, int opcode, int psn);
    }

    private final Filter filter;
    private final AtomicInteger sent = new AtomicInteger();
    final AtomicInteger dropped = new AtomicInteger();
    private final Bth bth = new Bth();

    private FilteringDatagrams(UdpDatagrams real, Filter filter) {
        super(real);
        this.filter = filter;
    }

    static DatagramsFactory factory(Filter filter, FilteringDatagrams[] made) {
        return local -> {
            FilteringDatagrams d = new FilteringDatagrams(UdpDatagrams.bind(local.getAddress(), local.getPort()), filter);
            made[0] = d;
            return d;
        };
    }

    @Override
    public boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
        bth.wrap(packet, packet.position());
        if (filter.drop(sent.getAndIncrement(), bth.opcode(), bth.psn())) {
            dropped.incrementAndGet();
            return true; // "sent", and lost on the way
        }
        return real.send(packet, destination);
    }
}
