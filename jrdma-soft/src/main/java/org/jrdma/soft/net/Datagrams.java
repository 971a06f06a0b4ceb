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

    /**
     * Whether {@link #send(TxBatch)} sends a run of equal packets to one peer as one GSO send,
     * which numbers the segments' IPv4 IDs 0, 1, 2, … ({@link TxBatch}). False for a channel that
     * sends each packet alone (each then leaves with ID 0).
     */
    default boolean segments() {
        return false;
    }

    /**
     * Sends every packet of {@code batch} and records each one's {@link TxBatch.Result}; leaves
     * the buffer cleared. This default sends them one by one with {@link #send(ByteBuffer,
     * InetSocketAddress)}; {@link NativeDatagrams} sends the batch in one sendmmsg.
     */
    default void send(TxBatch batch) {
        ByteBuffer b = batch.buffer();
        for (int i = 0, n = batch.count(); i < n; i++) {
            b.clear();
            int at = batch.offset(i);
            b.position(at).limit(at + batch.length(i));
            TxBatch.Result r;
            try {
                r = send(b, batch.destination(i)) ? TxBatch.Result.SENT : TxBatch.Result.QUEUE_FULL;
            } catch (IOException e) {
                r = TxBatch.Result.FAILED;
            }
            batch.result(i, r);
        }
        b.clear();
    }

    /**
     * Receives without blocking into {@code batch}'s slots, as many reads as it has or until
     * nothing is waiting, and returns how many. This default calls {@link #receive(ByteBuffer)}
     * per slot; {@link NativeDatagrams} takes them in one recvmmsg, with GRO.
     */
    default int receive(RxBatch batch) throws IOException {
        batch.clear();
        ByteBuffer b = batch.buffer();
        for (int i = 0, n = batch.slots(); i < n; i++) {
            int at = batch.slotOffset(i);
            b.clear();
            b.position(at).limit(at + batch.slotSize());
            InetSocketAddress from = receive(b);
            if (from == null) {
                break;
            }
            batch.read(i, b.position() - at, from, 0);
        }
        b.clear();
        return batch.reads();
    }

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
