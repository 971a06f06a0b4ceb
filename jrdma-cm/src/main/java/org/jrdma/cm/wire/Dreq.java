package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * DREQ, DisconnectRequest (§7.6). {@code remoteQpnEecn} is the receiver's QPN.
 *
 * @param localCommId the sender's communication ID
 * @param remoteCommId the receiver's communication ID
 * @param remoteQpnEecn the receiver's QPN, 24 bits
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record Dreq(int localCommId, int remoteCommId, int remoteQpnEecn, byte[] privateData) implements CmMessage {
    /** The DREQ's private data area: 220 bytes. */
    public static final int PRIVATE_DATA_SIZE = 220;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
    public Dreq {
        check("Dreq.remoteQpnEecn", remoteQpnEecn, 24);
        privateData = Fields.padded("DREQ", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.DREQ;
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
