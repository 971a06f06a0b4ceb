package org.jrdma.tools.rc;

import java.time.Duration;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpType;

/**
 * What a ping-pong endpoint (the demo's two, or {@code jrdma pingpong}) runs.
 *
 * @param device device name, or null for the first one
 * @param bootstrap tcp, file, static or cm
 * @param port TCP port for the exchange; 0 picks a free one (both ends are in this process)
 * @param size bytes per message
 * @param iters ping-pong round trips
 * @param events wait for completions on a completion channel instead of busy polling
 * @param mtu path MTU
 * @param timeout deadline for the exchange and for each completion
 * @param verify check every received byte against the peer's pattern (a jrdma peer); off for
 *     a foreign peer such as ibv_rc_pingpong, whose buffer holds other bytes
 * @param transport RC (ibv_rc_pingpong), UC (ibv_uc_pingpong) or UD (ibv_ud_pingpong)
 * @param rxDepth receives kept posted (rc_pingpong's {@code -r})
 * @param sl service level of the address vector ({@code -l})
 * @param gidIndex the local GID index ({@code -g}): 0 on a soft device (its one GID); on a native
 *     one (rdma_rxe) the RoCEv2 IPv4 GID is usually 1, as for ibv_rc_pingpong -g 1
 */
public record EndpointConfig(String device, String bootstrap, int port, int size, int iters, boolean events, Mtu mtu,
        Duration timeout, boolean verify, QpType transport, int rxDepth, int sl, int gidIndex) {
    /** The demo's receive depth. */
    public static final int RX_DEPTH = 16;
    /** ibv_rc_pingpong's default {@code -r}. */
    public static final int PINGPONG_RX_DEPTH = 500;
    /** Bytes in front of every UD receive: the GRH, or room for it (ROCEV2-FACTS §3.7). */
    public static final int UD_GRH = 40;

    /** RC with the demo's receive depth. */
    public EndpointConfig(String device, String bootstrap, int port, int size, int iters, boolean events, Mtu mtu,
            Duration timeout, boolean verify) {
        this(device, bootstrap, port, size, iters, events, mtu, timeout, verify, QpType.RC, RX_DEPTH, 0, 0);
    }

    /** RC, verification on (both ends are jrdma). */
    public EndpointConfig(String device, String bootstrap, int port, int size, int iters, boolean events, Mtu mtu,
            Duration timeout) {
        this(device, bootstrap, port, size, iters, events, mtu, timeout, true);
    }

    /** The same with another transport, receive depth and service level. */
    public EndpointConfig with(QpType newTransport, int newRxDepth, int newSl) {
        return new EndpointConfig(device, bootstrap, port, size, iters, events, mtu, timeout, verify, newTransport, newRxDepth,
                newSl, gidIndex);
    }

    /** The same with another local GID index. */
    public EndpointConfig withGidIndex(int newGidIndex) {
        return new EndpointConfig(device, bootstrap, port, size, iters, events, mtu, timeout, verify, transport, rxDepth, sl,
                newGidIndex);
    }

    /** Bytes a receive must hold: the message, after the GRH area on UD. */
    public int receiveBytes() {
        return transport == QpType.UD ? size + UD_GRH : size;
    }
}
