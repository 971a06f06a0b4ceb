package org.jrdma.bootstrap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jrdma.verbs.Gid;

/**
 * The seed's binary form, 28 bytes, big-endian (network order):
 *
 * <pre>
 *  0       2       4               8               12                              28
 *  | lid   | pad=0 |      qpn      |      psn      |          gid (16 raw bytes)  |
 * </pre>
 *
 * QPN and PSN travel as u32 so a value ≥ 2^24 is seen and refused rather than masked (OOB-08);
 * the pad must be zero so it stays usable as a future version/flags field.
 */
public final class SeedBinaryCodec implements ConnInfoCodec {
    /** The codec; it holds no state. */
    public static final SeedBinaryCodec INSTANCE = new SeedBinaryCodec();
    /** 28: the message's size in bytes. */
    public static final int SIZE = 28;

    private static final int LID_AT = 0, PAD_AT = 2, QPN_AT = 4, PSN_AT = 8, GID_AT = 12;

    private SeedBinaryCodec() {
    }

    @Override
    public String name() {
        return "seed binary";
    }

    @Override
    public int size() {
        return SIZE;
    }

    @Override
    public void encode(ConnInfo info, ByteBuffer dst) {
        ConnInfo.requireNoBuffer(info, name());
        ByteOrder saved = dst.order();
        dst.order(ByteOrder.BIG_ENDIAN)
                .putShort((short) info.lid())
                .putShort((short) 0)
                .putInt(info.qpn())
                .putInt(info.psn())
                .put(info.gid().toBytes())
                .order(saved);
    }

    @Override
    public ConnInfo decode(byte[] message) {
        if (message.length != SIZE) {
            throw new MalformedMessageException("size", "expected " + SIZE + " bytes, got " + message.length);
        }
        checkPrefix(message, SIZE);
        ByteBuffer in = ByteBuffer.wrap(message).order(ByteOrder.BIG_ENDIAN);
        int lid = Short.toUnsignedInt(in.getShort(LID_AT));
        int qpn = in.getInt(QPN_AT);
        int psn = in.getInt(PSN_AT);
        byte[] gid = new byte[Gid.BYTES];
        in.get(GID_AT, gid);
        try {
            return new ConnInfo(lid, qpn, psn, Gid.of(gid));
        } catch (InvalidFieldException e) {
            throw MalformedMessageException.from(e);
        }
    }

    @Override
    public void checkPrefix(byte[] partial, int length) {
        for (int i = PAD_AT; i < Math.min(length, QPN_AT); i++) {
            if (partial[i] != 0) {
                throw new MalformedMessageException("pad", "byte " + i + " is " + Excerpt.ofByte(partial[i])
                        + ", must be 0 in " + Excerpt.of(partial, 0, length));
            }
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
