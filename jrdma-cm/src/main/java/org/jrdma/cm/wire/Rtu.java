package org.jrdma.cm.wire;


/** RTU, ReadyToUse (§7.6): the active side's last message of the handshake. */
public record Rtu(int localCommId, int remoteCommId, byte[] privateData) implements CmMessage {
    public static final int PRIVATE_DATA_SIZE = 224;

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
