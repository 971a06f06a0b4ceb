package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * REJ, ConnectReject (§7.6). {@code messageRejected} says what is refused ({@link #REJECTED_REQ},
 * {@link #REJECTED_REP}, {@link #REJECTED_OTHER}); {@code reason} is the raw 16-bit code, see
 * {@link RejectReason}; {@code ari} is the 72-byte Additional Rejection Information of which the
 * first {@code rejectInfoLength} bytes count. A REJ that answers a REQ before a local comm ID
 * exists has {@code localCommId} 0 (§7.10).
 */
public record Rej(
        int localCommId,
        int remoteCommId,
        int messageRejected,
        int rejectInfoLength,
        int reason,
        byte[] ari,
        byte[] privateData) implements CmMessage {

    public static final int REJECTED_REQ = 0, REJECTED_REP = 1, REJECTED_OTHER = 2;
    public static final int ARI_SIZE = 72;
    public static final int PRIVATE_DATA_SIZE = 148;

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

    /** The reason's constant, or null for a code §7.10 does not list. */
    public RejectReason rejectReason() {
        return RejectReason.of(reason);
    }

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
