package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * REP, ConnectReply (§7.6). Newer kernels spread a 24-bit ECE vendor ID over the reserved low bytes
 * of the three 24-bit words: bits 23–16 in byte 15, 15–8 in byte 19, 7–0 in byte 23 (CM offsets);
 * {@code eceVendorId} is listed at its first byte. {@code startingPsn} is the PSN the replier
 * expects to receive (§7.8). The private data is all the user's: rdma_cm prepends nothing.
 */
public record Rep(
        int localCommId,
        int remoteCommId,
        int localQkey,
        int localQpn,
        int eceVendorId,
        int localEecn,
        int startingPsn,
        int responderResources,
        int initiatorDepth,
        int targetAckDelay,
        int failoverAccepted,
        boolean endToEndFlowControl,
        int rnrRetryCount,
        boolean srq,
        long localCaGuid,
        byte[] privateData) implements CmMessage {

    public static final int PRIVATE_DATA_SIZE = 196;

    public Rep {
        check("Rep.localQpn", localQpn, 24);
        check("Rep.eceVendorId", eceVendorId, 24);
        check("Rep.localEecn", localEecn, 24);
        check("Rep.startingPsn", startingPsn, 24);
        check("Rep.responderResources", responderResources, 8);
        check("Rep.initiatorDepth", initiatorDepth, 8);
        check("Rep.targetAckDelay", targetAckDelay, 5);
        check("Rep.failoverAccepted", failoverAccepted, 2);
        check("Rep.rnrRetryCount", rnrRetryCount, 3);
        privateData = Fields.padded("REP", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REP;
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
