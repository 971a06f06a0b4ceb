package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Wire.*;

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

    void write(byte[] m) {
        put32(m, D, localCommId);
        put32(m, D + 4, remoteCommId);
        putBytes(m, D + 8, privateData);
    }

    static Drep read(byte[] m) {
        return new Drep(u32(m, D), u32(m, D + 4), slice(m, D + 8, PRIVATE_DATA_SIZE));
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
