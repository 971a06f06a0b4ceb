package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;
import static org.jrdma.cm.wire.Wire.*;

/** DREQ, DisconnectRequest (§7.6). {@code remoteQpnEecn} is the receiver's QPN. */
public record Dreq(int localCommId, int remoteCommId, int remoteQpnEecn, byte[] privateData) implements CmMessage {
    public static final int PRIVATE_DATA_SIZE = 220;

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

    void write(byte[] m) {
        put32(m, D, localCommId);
        put32(m, D + 4, remoteCommId);
        put24(m, D + 8, remoteQpnEecn);
        putBytes(m, D + 12, privateData);
    }

    static Dreq read(byte[] m) {
        return new Dreq(u32(m, D), u32(m, D + 4), u24(m, D + 8), slice(m, D + 12, PRIVATE_DATA_SIZE));
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
