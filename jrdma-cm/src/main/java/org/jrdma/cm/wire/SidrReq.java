package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * SIDR_REQ (§7.6): resolves a service ID to a UD QPN and Q_Key. rdma_cm's UDP port space sends it
 * with a {@link CmaHeader} in front of up to 180 user bytes (§7.3).
 *
 * @param requestId the requester's ID, echoed in the SIDR_REP
 * @param partitionKey the P_Key, 16 bits
 * @param serviceId the service ID to resolve ({@link ServiceId})
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record SidrReq(int requestId, int partitionKey, long serviceId, byte[] privateData) implements CmMessage {
    /** The SIDR_REQ's private data area: 216 bytes. */
    public static final int PRIVATE_DATA_SIZE = 216;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
    public SidrReq {
        check("SidrReq.partitionKey", partitionKey, 16);
        privateData = Fields.padded("SIDR_REQ", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.SIDR_REQ;
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
