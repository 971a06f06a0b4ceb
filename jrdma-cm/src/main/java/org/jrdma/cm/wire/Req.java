package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

import java.util.Objects;

/**
 * REQ, ConnectRequest (§7.6). {@code eceVendorId} is the 24-bit ECE vendor ID that newer kernels put
 * in the reserved bytes 5–7; {@code startingPsn} is, in Linux's reading, the PSN the sender expects
 * to receive (§7.8). The private data of an rdma_cm REQ starts with a {@link CmaHeader}.
 *
 * @param localCommId the sender's communication ID for this connection
 * @param eceVendorId the ECE vendor ID, 24 bits (0: none)
 * @param serviceId the 64-bit service ID the REQ is for ({@link ServiceId})
 * @param localCaGuid the sender's CA GUID
 * @param localQkey the sender's Q_Key (RD only)
 * @param localQpn the sender's QPN, 24 bits
 * @param responderResources RDMA reads and atomics the sender serves at once, 8 bits
 * @param localEecn the sender's EE context number (RD only), 24 bits
 * @param initiatorDepth RDMA reads and atomics the sender has outstanding, 8 bits
 * @param remoteEecn the receiver's EE context number (RD only), 24 bits
 * @param remoteCmResponseTimeout how long the receiver may take to answer: 4.096 µs × 2^n, 5 bits
 * @param transportServiceType 0 RC, 1 UC, 2 RD, 3 extended; 2 bits
 * @param endToEndFlowControl whether the sender's receive queue does end-to-end flow control
 * @param startingPsn the first PSN, 24 bits (see above for its direction)
 * @param localCmResponseTimeout how long the sender takes to answer: 4.096 µs × 2^n, 5 bits
 * @param retryCount the QP's transport retry count, 3 bits
 * @param partitionKey the P_Key, 16 bits
 * @param pathMtu the path MTU in IB encoding (1: 256 … 5: 4096), 4 bits
 * @param rdcExists whether an RD channel exists (RD only)
 * @param rnrRetryCount the QP's RNR retry count, 3 bits (7: infinite)
 * @param maxCmRetries how often the sender resends a CM message, 4 bits
 * @param srq whether the sender's QP uses an SRQ
 * @param extendedTransportType the extended transport (e.g. XRC) when the type is 3; 3 bits
 * @param primaryPath the primary path
 * @param alternatePath the alternate path, {@link PathInfo#NONE} when there is none
 * @param sapSupported whether the sender supports the Service Access Point's alternate paths
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record Req(
        int localCommId,
        int eceVendorId,
        long serviceId,
        long localCaGuid,
        int localQkey,
        int localQpn,
        int responderResources,
        int localEecn,
        int initiatorDepth,
        int remoteEecn,
        int remoteCmResponseTimeout,
        int transportServiceType,
        boolean endToEndFlowControl,
        int startingPsn,
        int localCmResponseTimeout,
        int retryCount,
        int partitionKey,
        int pathMtu,
        boolean rdcExists,
        int rnrRetryCount,
        int maxCmRetries,
        boolean srq,
        int extendedTransportType,
        PathInfo primaryPath,
        PathInfo alternatePath,
        boolean sapSupported,
        byte[] privateData) implements CmMessage {

    /** The REQ's private data area: 92 bytes. */
    public static final int PRIVATE_DATA_SIZE = 92;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
    public Req {
        check("Req.eceVendorId", eceVendorId, 24);
        check("Req.localQpn", localQpn, 24);
        check("Req.responderResources", responderResources, 8);
        check("Req.localEecn", localEecn, 24);
        check("Req.initiatorDepth", initiatorDepth, 8);
        check("Req.remoteEecn", remoteEecn, 24);
        check("Req.remoteCmResponseTimeout", remoteCmResponseTimeout, 5);
        check("Req.transportServiceType", transportServiceType, 2);
        check("Req.startingPsn", startingPsn, 24);
        check("Req.localCmResponseTimeout", localCmResponseTimeout, 5);
        check("Req.retryCount", retryCount, 3);
        check("Req.partitionKey", partitionKey, 16);
        check("Req.pathMtu", pathMtu, 4);
        check("Req.rnrRetryCount", rnrRetryCount, 3);
        check("Req.maxCmRetries", maxCmRetries, 4);
        check("Req.extendedTransportType", extendedTransportType, 3);
        Objects.requireNonNull(primaryPath, "Req.primaryPath");
        Objects.requireNonNull(alternatePath, "Req.alternatePath (PathInfo.NONE when there is none)");
        privateData = Fields.padded("REQ", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REQ;
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
