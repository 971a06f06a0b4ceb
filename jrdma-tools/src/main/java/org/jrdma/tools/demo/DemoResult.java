package org.jrdma.tools.demo;

import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.tools.rc.RcEndpoint;
import java.util.List;
import java.util.Map;
import org.jrdma.bootstrap.ConnInfo;

/**
 * What a demo run did. {@code tcpClosed*Nanos} are when each side's out-of-band channel was
 * closed and {@code firstRdmaPacketNanos} when the device sent its first RDMA packet, all on
 * {@link System#nanoTime()}. A soft device tells when it sent that packet ({@code packetsSeen});
 * a NIC's packets are not visible, and the time is then the start of the data phase, before
 * which no RDMA packet can leave: no WR that sends is posted before it, and a responder answers
 * only what a requester sent. (Not the first RTS: rc_pingpong's server reaches RTS before it
 * answers and closes its socket.)
 */
public record DemoResult(
        String device,
        EndpointConfig config,
        List<Phase> phases,
        ConnInfo serverLocal,
        ConnInfo serverRemote,
        ConnInfo clientLocal,
        ConnInfo clientRemote,
        DataResult data,
        long serverChannelClosedNanos,
        long clientChannelClosedNanos,
        long firstRdmaPacketNanos,
        boolean packetsSeen,
        Map<String, Long> counters) {

    /** The seed's rule: the out-of-band channel is gone before any RDMA packet leaves. */
    public boolean channelClosedBeforeFirstPacket() {
        return firstRdmaPacketNanos != 0
                && serverChannelClosedNanos != 0 && serverChannelClosedNanos < firstRdmaPacketNanos
                && clientChannelClosedNanos != 0 && clientChannelClosedNanos < firstRdmaPacketNanos;
    }
}
