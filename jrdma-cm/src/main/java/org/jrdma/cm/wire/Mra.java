package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * MRA, MsgRcptAck (§7.6, §7.9): "received, wait up to 4.096 µs × 2^serviceTimeout more".
 * {@code messageMraed} says which message is acknowledged ({@link #MRAED_REQ}, {@link #MRAED_REP},
 * {@link #MRAED_OTHER}).
 *
 * @param localCommId the sender's communication ID
 * @param remoteCommId the receiver's communication ID
 * @param messageMraed which message is acknowledged, 2 bits
 * @param serviceTimeout how much longer to wait: 4.096 µs × 2^n, 5 bits
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record Mra(int localCommId, int remoteCommId, int messageMraed, int serviceTimeout, byte[] privateData)
        implements CmMessage {

    /** Message MRAed values: a REQ (0), a REP (1), another message (2). */
    public static final int MRAED_REQ = 0, MRAED_REP = 1, MRAED_OTHER = 2;
    /** The MRA's private data area: 222 bytes. */
    public static final int PRIVATE_DATA_SIZE = 222;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
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
