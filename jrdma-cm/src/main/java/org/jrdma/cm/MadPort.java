package org.jrdma.cm;

import java.net.InetAddress;
import org.jrdma.verbs.Context;

/**
 * How the CM agent of one device sends and receives its 256-byte MADs. On a real device this
 * is the GSI QP (QP1, Q_Key 0x80010000; {@link GsiMadPort}); tests may put an in-memory
 * network in its place.
 */
public interface MadPort extends AutoCloseable {
    /**
     * Sends one MAD to QP1 of the device at {@code peer}. Never blocks for long; a lost MAD is the
     * CM's to resend.
     *
     * @param peer the peer device's address
     * @param mad the MAD, 256 bytes
     */
    void send(InetAddress peer, byte[] mad);

    /** Stops receiving and releases the port. */
    @Override
    void close();

    /** Where received MADs go, on the port's own thread. */
    @FunctionalInterface
    interface Receiver {
        /**
         * One MAD arrived from {@code source} (the GRH's source address), sent by QP {@code
         * sourceQpn}; {@code mad[off .. off+len)} is the MAD.
         *
         * @param source the sender's address
         * @param sourceQpn the sending QP's number
         * @param mad the buffer holding the MAD, only valid during the call
         * @param off where the MAD starts in it
         * @param len the MAD's length
         */
        void onMad(InetAddress source, int sourceQpn, byte[] mad, int off, int len);
    }

    /** Opens the MAD port of a device. */
    @FunctionalInterface
    interface Factory {
        /**
         * Opens the MAD port of the device behind {@code context}.
         *
         * @param context an open context of the device (the agent's own)
         * @param local the device's address (IPv4 or IPv6)
         * @param receiver where received MADs go
         * @return the open port
         */
        MadPort open(Context context, InetAddress local, Receiver receiver);
    }
}
