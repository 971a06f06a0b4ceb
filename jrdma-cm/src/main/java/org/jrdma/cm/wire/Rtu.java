package org.jrdma.cm.wire;


/**
 * RTU, ReadyToUse (§7.6): the active side's last message of the handshake.
 *
 * @param localCommId the sender's communication ID
 * @param remoteCommId the receiver's communication ID
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record Rtu(int localCommId, int remoteCommId, byte[] privateData) implements CmMessage {
    /** The RTU's private data area: 224 bytes. */
    public static final int PRIVATE_DATA_SIZE = 224;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
    public Rtu {
        privateData = Fields.padded("RTU", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.RTU;
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
