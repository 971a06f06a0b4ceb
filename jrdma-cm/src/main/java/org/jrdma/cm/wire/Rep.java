package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * REP, ConnectReply (§7.6). Newer kernels spread a 24-bit ECE vendor ID over the reserved low bytes
 * of the three 24-bit words: bits 23–16 in byte 15, 15–8 in byte 19, 7–0 in byte 23 (CM offsets);
 * {@code eceVendorId} is listed at its first byte. {@code startingPsn} is the PSN the replier
 * expects to receive (§7.8). The private data is all the user's: rdma_cm prepends nothing.
 *
 * @param localCommId the replier's communication ID
 * @param remoteCommId the requester's communication ID, from its REQ
 * @param localQkey the replier's Q_Key (RD only)
 * @param localQpn the replier's QPN, 24 bits
 * @param eceVendorId the ECE vendor ID, 24 bits (0: none)
 * @param localEecn the replier's EE context number (RD only), 24 bits
 * @param startingPsn the first PSN, 24 bits
 * @param responderResources RDMA reads and atomics the replier serves at once, 8 bits
 * @param initiatorDepth RDMA reads and atomics the replier has outstanding, 8 bits
 * @param targetAckDelay the replier's ACK delay: 4.096 µs × 2^n, 5 bits
 * @param failoverAccepted 0 the alternate path is accepted, 1 refused, 2 unsupported; 2 bits
 * @param endToEndFlowControl whether the replier's receive queue does end-to-end flow control
 * @param rnrRetryCount the QP's RNR retry count, 3 bits (7: infinite)
 * @param srq whether the replier's QP uses an SRQ
 * @param localCaGuid the replier's CA GUID
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
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

    /** The REP's private data area: 196 bytes. */
    public static final int PRIVATE_DATA_SIZE = 196;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
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
