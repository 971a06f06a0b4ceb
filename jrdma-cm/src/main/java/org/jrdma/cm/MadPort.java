package org.jrdma.cm;

import java.net.InetAddress;
import org.jrdma.verbs.Context;

/**
 * How the CM agent of one device sends and receives its 256-byte MADs. On a real device this
 * is the GSI QP (QP1, Q_Key 0x80010000; {@link GsiMadPort}); tests may put an in-memory
 * network in its place.
 */
public interface MadPort extends AutoCloseable {
    /** Sends one MAD to QP1 of the device at {@code peer}. Never blocks for long; a lost MAD is the CM's to resend. */
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
         */
        void onMad(InetAddress source, int sourceQpn, byte[] mad, int off, int len);
    }

    /** Opens the MAD port of a device. */
    @FunctionalInterface
    interface Factory {
        /**
         * @param context an open context of the device (the agent's own)
         * @param local the device's address (IPv4 or IPv6)
         * @param receiver where received MADs go
         */
        MadPort open(Context context, InetAddress local, Receiver receiver);
    }
}
