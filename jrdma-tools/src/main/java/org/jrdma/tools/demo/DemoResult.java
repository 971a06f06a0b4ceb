package org.jrdma.tools.demo;

import org.jrdma.tools.rc.EndpointConfig;
import org.jrdma.tools.rc.RcEndpoint;
import java.util.List;
import java.util.Map;
import org.jrdma.bootstrap.ConnInfo;

/**
 * What a demo run did. {@code tcpClosed*Nanos} are when each side's out-of-band channel was
 * closed and {@code firstRdmaPacketNanos} when the device sent its first RDMA packet (0 if
 * the provider cannot tell), all on {@link System#nanoTime()}.
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
        Map<String, Long> counters) {

    /** The seed's rule: the out-of-band channel is gone before any RDMA packet leaves. */
    public boolean channelClosedBeforeFirstPacket() {
        return firstRdmaPacketNanos != 0
                && serverChannelClosedNanos != 0 && serverChannelClosedNanos < firstRdmaPacketNanos
                && clientChannelClosedNanos != 0 && clientChannelClosedNanos < firstRdmaPacketNanos;
    }
}
