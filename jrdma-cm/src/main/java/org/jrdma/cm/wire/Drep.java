package org.jrdma.cm.wire;


/**
 * DREP, DisconnectReply (§7.6).
 *
 * @param localCommId the sender's communication ID
 * @param remoteCommId the receiver's communication ID
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record Drep(int localCommId, int remoteCommId, byte[] privateData) implements CmMessage {
    /** The DREP's private data area: 224 bytes. */
    public static final int PRIVATE_DATA_SIZE = 224;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
    public Drep {
        privateData = Fields.padded("DREP", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.DREP;
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
