package org.jrdma.bootstrap.tcp;

import java.util.Arrays;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.MalformedMessageException;

/**
 * The plain exchange's check of the peer's first bytes: the codec's, except that a peer which
 * opens with an authenticated exchange — a jrdma-psk hello, or a TLS record — is refused saying
 * so (AUTH-02's "vice versa": no fall-back either way), instead of "'J' at offset 0 is not a
 * hex digit". Public for jrdma pingpong's server, which reads in rc_pingpong's order.
 */
public final class PlainPeerCheck {
    /** TLS record type handshake, then major version 3 (RFC 8446 §5.1). */
    private static final byte[] TLS_HANDSHAKE = {0x16, 0x03};

    private PlainPeerCheck() {
    }

    /**
     * {@code codec}'s prefix check; what it refuses is refused all the same, only named better
     * when the bytes are a jrdma-psk hello's or a TLS record's start.
     *
     * @param codec the plain exchange's codec
     * @return the check
     */
    public static Link.PrefixCheck of(ConnInfoCodec codec) {
        return (partial, length) -> {
            try {
                codec.checkPrefix(partial, length);
            } catch (MalformedMessageException e) {
                if (startsWith(partial, length, PskHandshake.MAGIC)) {
                    throw mismatch("jrdma-psk (it runs with --psk-file)", e);
                }
                if (startsWith(partial, length, TLS_HANDSHAKE)) {
                    throw mismatch("TLS", e);
                }
                throw e;
            }
        };
    }

    private static boolean startsWith(byte[] partial, int length, byte[] magic) {
        return length >= magic.length && Arrays.equals(partial, 0, magic.length, magic, 0, magic.length);
    }

    private static MalformedMessageException mismatch(String protocol, MalformedMessageException cause) {
        return new MalformedMessageException("protocol", "the peer speaks " + protocol
                + ", this side the plain exchange: both must use the same mode (the same --psk-file, or TLS, or neither)", cause);
    }
}
