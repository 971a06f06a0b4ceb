package org.jrdma.cm.wire;


/** DREP, DisconnectReply (§7.6). */
public record Drep(int localCommId, int remoteCommId, byte[] privateData) implements CmMessage {
    public static final int PRIVATE_DATA_SIZE = 224;

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
