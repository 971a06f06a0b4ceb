package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Wire.*;

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

    void write(byte[] m) {
        put32(m, D, localCommId);
        put32(m, D + 4, remoteCommId);
        putBytes(m, D + 8, privateData);
    }

    static Rtu read(byte[] m) {
        return new Rtu(u32(m, D), u32(m, D + 4), slice(m, D + 8, PRIVATE_DATA_SIZE));
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
