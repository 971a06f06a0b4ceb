package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * MRA, MsgRcptAck (§7.6, §7.9): "received, wait up to 4.096 µs × 2^serviceTimeout more".
 * {@code messageMraed} says which message is acknowledged ({@link #MRAED_REQ}, {@link #MRAED_REP},
 * {@link #MRAED_OTHER}).
 */
public record Mra(int localCommId, int remoteCommId, int messageMraed, int serviceTimeout, byte[] privateData)
        implements CmMessage {

    public static final int MRAED_REQ = 0, MRAED_REP = 1, MRAED_OTHER = 2;
    public static final int PRIVATE_DATA_SIZE = 222;

    public Mra {
        check("Mra.messageMraed", messageMraed, 2);
        check("Mra.serviceTimeout", serviceTimeout, 5);
        privateData = Fields.padded("MRA", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.MRA;
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
