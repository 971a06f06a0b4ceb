package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;
import static org.jrdma.cm.wire.Wire.*;

/**
 * SIDR_REQ (§7.6): resolves a service ID to a UD QPN and Q_Key. rdma_cm's UDP port space sends it
 * with a {@link CmaHeader} in front of up to 180 user bytes (§7.3).
 */
public record SidrReq(int requestId, int partitionKey, long serviceId, byte[] privateData) implements CmMessage {
    public static final int PRIVATE_DATA_SIZE = 216;

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

    void write(byte[] m) {
        put32(m, D, requestId);
        put16(m, D + 4, partitionKey);
        put64(m, D + 8, serviceId);
        putBytes(m, D + 16, privateData);
    }

    static SidrReq read(byte[] m) {
        return new SidrReq(u32(m, D), u16(m, D + 4), u64(m, D + 8), slice(m, D + 16, PRIVATE_DATA_SIZE));
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
