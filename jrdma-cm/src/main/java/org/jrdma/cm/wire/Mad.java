package org.jrdma.cm.wire;

/** Sizes and fixed values of a CM MAD and of the GSI QP that carries it (§7.4, §7.5). */
public final class Mad {
    /** A MAD is always 256 bytes, on the wire and in a GSI receive (after the 40-byte GRH area). */
    public static final int SIZE = 256;
    /** The MAD common header: 24 bytes. */
    public static final int HEADER_SIZE = 24;
    /** What follows the header: 232 bytes. */
    public static final int DATA_SIZE = SIZE - HEADER_SIZE;
    /** The MAD base version: 1. */
    public static final int BASE_VERSION = 1;
    /** The management class of the CM: 0x07. */
    public static final int MGMT_CLASS_CM = 0x07;
    /** The CM class version: 2. */
    public static final int CLASS_VERSION_CM = 2;
    /** Every CM message is a SEND: the MAD layer does no request/response matching for CM. */
    public static final int METHOD_SEND = 0x03;
    /** The well-known Q_Key of QP1; the receiving GSI QP drops anything else (§7.4). */
    public static final int GSI_QKEY = 0x80010000;
    /** The GSI's QP number: QP1. */
    public static final int GSI_QPN = 1;

    private Mad() {
    }
}
