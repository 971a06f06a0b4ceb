package org.jrdma.cm.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Encodes and decodes CM MADs (§7.5, §7.6), every message through its field table in
 * {@link CmTables}. Reserved bits are written as zero and ignored when read, so decode then encode
 * gives back a kernel's bytes exactly (the golden vectors of the rping and ib_write_bw -R captures).
 */
public final class CmCodec {
    private CmCodec() {
    }

    /**
     * The 256-byte MAD of {@code m} with Linux's CM header ({@link MadHeader#cm}).
     *
     * @param transactionId the MAD's 64-bit transaction ID
     * @param m the message
     * @return the MAD
     */
    public static byte[] encode(long transactionId, CmMessage m) {
        return write(new CmMad(MadHeader.cm(transactionId, m.attribute().id()), m));
    }

    /**
     * Puts the 256-byte MAD at {@code out}'s position, big-endian whatever {@code out}'s order. The
     * header is written as given (tests build malformed MADs with it), but its attribute ID must be
     * the message's. BufferOverflowException, with nothing written, if fewer than 256 bytes remain.
     *
     * @param h the MAD header
     * @param m the message
     * @param out where the MAD goes
     * @throws IllegalArgumentException if the header's attribute ID is not the message's
     */
    public static void encode(MadHeader h, CmMessage m, ByteBuffer out) {
        out.put(write(new CmMad(h, m)));
    }

    /**
     * Decodes one MAD as a GSI receive delivers it: exactly 256 bytes (anything else is not a MAD),
     * base version 1, class CM version 2, method SEND, and one of the nine messages of
     * {@link CmMessage}. ClassPortInfo, LAP and APR are CM attributes this codec does not support.
     *
     * @param b the buffer holding the MAD
     * @param off where it starts
     * @param len its length, which must be 256
     * @return the header and the message
     * @throws CmFormatException naming the field that is wrong
     */
    public static CmMad decode(byte[] b, int off, int len) throws CmFormatException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len != Mad.SIZE) {
            throw new CmFormatException("length", len + " bytes; a MAD is " + Mad.SIZE);
        }
        byte[] mad = Arrays.copyOfRange(b, off, off + len);
        MadHeader h = CmTables.MAD_HEADER.read(mad, 0);
        expect("baseVersion", h.baseVersion(), Mad.BASE_VERSION, null);
        expect("mgmtClass", h.mgmtClass(), Mad.MGMT_CLASS_CM, null);
        expect("classVersion", h.classVersion(), Mad.CLASS_VERSION_CM, RejectReason.INVALID_CLASS_VERSION);
        expect("method", h.method(), Mad.METHOD_SEND, null);
        CmAttribute a = CmAttribute.of(h.attributeId());
        if (a == null) {
            throw new CmFormatException("attributeId", "0x" + Integer.toHexString(h.attributeId()) + " is not a CM attribute");
        }
        CmLayout<? extends CmMessage> table = CmTables.of(a);
        if (table == null) {
            throw new CmFormatException("attributeId", a + " (0x" + Integer.toHexString(a.id()) + ") is not supported");
        }
        return new CmMad(h, table.read(mad, Mad.HEADER_SIZE));
    }

    private static byte[] write(CmMad cm) {
        byte[] mad = new byte[Mad.SIZE];
        CmTables.MAD_HEADER.write(cm.header(), mad, 0);
        CmTables.of(cm.message().attribute()).write(cm.message(), mad, Mad.HEADER_SIZE);
        return mad;
    }

    private static void expect(String field, int actual, int expected, RejectReason reason) throws CmFormatException {
        if (actual != expected) {
            throw new CmFormatException(field, actual + ", expected " + expected, reason);
        }
    }
}
