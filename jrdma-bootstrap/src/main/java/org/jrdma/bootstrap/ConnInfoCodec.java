package org.jrdma.bootstrap;

import java.nio.ByteBuffer;

/**
 * A fixed-size wire form of {@link ConnInfo}. Fixed size is what lets an exchange read exactly
 * {@link #size()} bytes into a buffer it allocated before the peer said anything, so nothing
 * depends on peer input (OOB-02).
 */
public interface ConnInfoCodec {
    /**
     * A short name for messages, e.g. {@code rc_pingpong text}.
     *
     * @return the name
     */
    String name();

    /**
     * The exact size of one message.
     *
     * @return the size in bytes
     */
    int size();

    /**
     * Writes exactly {@link #size()} bytes at {@code dst}'s position and advances it.
     *
     * @param info the connection info to encode
     * @param dst the buffer, with at least {@link #size()} bytes remaining
     * @throws IllegalArgumentException if {@code info} exposes a buffer ({@link ConnInfo#buffer})
     *     and this codec has no field for one: it is refused rather than silently dropped
     */
    void encode(ConnInfo info, ByteBuffer dst);

    /**
     * Encodes {@code info} into a new array of {@link #size()} bytes.
     *
     * @param info the connection info to encode
     * @return the message
     * @throws IllegalArgumentException if {@code info} exposes a buffer this codec cannot carry
     */
    default byte[] encode(ConnInfo info) {
        byte[] out = new byte[size()];
        encode(info, ByteBuffer.wrap(out));
        return out;
    }

    /**
     * Parses and validates exactly {@link #size()} bytes.
     *
     * @param message the message, exactly {@link #size()} bytes
     * @return the connection info it carries
     * @throws MalformedMessageException naming the field that is wrong
     */
    ConnInfo decode(byte[] message);

    /**
     * Refuses a message as soon as its first {@code length} bytes can no longer be valid, so a
     * foreign protocol (an HTTP request, a TLS ClientHello) is rejected when it arrives rather
     * than at the read deadline (OOB-06). The default accepts every prefix.
     *
     * @param partial the bytes read so far
     * @param length how many of them are valid
     * @throws MalformedMessageException naming the field that is wrong
     */
    default void checkPrefix(byte[] partial, int length) {
    }
}
