package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

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
