package org.jrdma.soft.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Where a soft device's RoCEv2 packets (UDP payloads: BTH … ICRC) go out and come in. The
 * real one is a UDP socket on port 4791; tests and the impairment layer wrap or replace it.
 */
public interface Datagrams extends AutoCloseable {
    /** The local address and port packets leave from (part of every ICRC). */
    InetSocketAddress localAddress();

    /** Sends {@code packet}'s remaining bytes as one datagram; false if the kernel had no room. */
    boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException;

    /**
     * Receives one datagram into {@code buffer} (from its position) without blocking; returns
     * the sender, or null when nothing is waiting.
     */
    InetSocketAddress receive(ByteBuffer buffer) throws IOException;

    /** Blocks until a datagram may be waiting, {@link #wakeup()} is called, or the timeout ends. */
    void await(long timeoutNanos) throws IOException;

    /** Ends an {@link #await} early (from any thread). */
    void wakeup();

    /**
     * Sends now whatever this channel holds back that is due (an impairment's delayed and
     * reordered packets) and returns the nanoseconds until the next one is due, or
     * {@link Long#MAX_VALUE} when nothing is held. {@link #send}, {@link #receive} and
     * {@link #await} do the same as they pass; this is for a thread that runs none of them —
     * the device thread while the application drives the engine — so that a held packet
     * leaves when due even while no engine pass runs. Never blocks, from any thread; a plain
     * socket holds nothing.
     */
    default long releaseDue() {
        return Long.MAX_VALUE;
    }

    @Override
    void close() throws IOException;
}
