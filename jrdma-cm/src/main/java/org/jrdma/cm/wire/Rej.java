package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * REJ, ConnectReject (§7.6). {@code messageRejected} says what is refused ({@link #REJECTED_REQ},
 * {@link #REJECTED_REP}, {@link #REJECTED_OTHER}); {@code reason} is the raw 16-bit code, see
 * {@link RejectReason}; {@code ari} is the 72-byte Additional Rejection Information of which the
 * first {@code rejectInfoLength} bytes count. A REJ that answers a REQ before a local comm ID
 * exists has {@code localCommId} 0 (§7.10).
 *
 * @param localCommId the sender's communication ID, 0 if it has none yet
 * @param remoteCommId the receiver's communication ID
 * @param messageRejected what is refused, 2 bits
 * @param rejectInfoLength how many ARI bytes count, 7 bits
 * @param reason the reject reason's 16-bit code
 * @param ari the Additional Rejection Information, {@value #ARI_SIZE} bytes
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record Rej(
        int localCommId,
        int remoteCommId,
        int messageRejected,
        int rejectInfoLength,
        int reason,
        byte[] ari,
        byte[] privateData) implements CmMessage {

    /** Message Rejected values: a REQ (0), a REP (1), another message (2). */
    public static final int REJECTED_REQ = 0, REJECTED_REP = 1, REJECTED_OTHER = 2;
    /** The ARI area: 72 bytes. */
    public static final int ARI_SIZE = 72;
    /** The REJ's private data area: 148 bytes. */
    public static final int PRIVATE_DATA_SIZE = 148;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
    public Rej {
        check("Rej.messageRejected", messageRejected, 2);
        check("Rej.rejectInfoLength", rejectInfoLength, 7);
        check("Rej.reason", reason, 16);
        ari = Fields.padded("REJ", "additional reject info", ari, ARI_SIZE);
        privateData = Fields.padded("REJ", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REJ;
    }

    /**
     * The reason's constant, or null for a code §7.10 does not list.
     *
     * @return the reason, or null
     */
    public RejectReason rejectReason() {
        return RejectReason.of(reason);
    }

    /**
     * The Additional Rejection Information.
     *
     * @return a copy of its {@value #ARI_SIZE} bytes
     */
    @Override
    public byte[] ari() {
        return ari.clone();
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public boolean equals(Object o) {
        return Fields.equal(this, o);
    }

    @Override
    public int hashCode() {
        return Fields.hash(this);
    }

    @Override
    public String toString() {
        return Fields.describe(this);
    }
}
