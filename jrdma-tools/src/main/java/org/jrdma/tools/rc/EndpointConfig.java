package org.jrdma.tools.rc;

import java.time.Duration;
import org.jrdma.verbs.Mtu;

/**
 * What a ping-pong endpoint (the demo's two, or {@code jrdma pingpong}) runs.
 *
 * @param device device name, or null for the first one
 * @param bootstrap tcp, file or static
 * @param port TCP port for the exchange; 0 picks a free one (both ends are in this process)
 * @param size bytes per message
 * @param iters ping-pong round trips
 * @param events wait for completions on a completion channel instead of busy polling
 * @param mtu path MTU
 * @param timeout deadline for the exchange and for each completion
 * @param verify check every received byte against the peer's pattern (a jrdma peer); off for
 *     a foreign peer such as ibv_rc_pingpong, whose buffer holds other bytes
 */
public record EndpointConfig(String device, String bootstrap, int port, int size, int iters, boolean events, Mtu mtu,
        Duration timeout, boolean verify) {
    public static final int RX_DEPTH = 16;

    /** With verification on (both ends are jrdma). */
    public EndpointConfig(String device, String bootstrap, int port, int size, int iters, boolean events, Mtu mtu,
            Duration timeout) {
        this(device, bootstrap, port, size, iters, events, mtu, timeout, true);
    }
}
